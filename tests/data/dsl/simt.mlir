// made by: python tests/dsl_kernels.py tests/data/dsl/simt.mlir kernel=simt (the CuTe DSL, CUTE_DSL_ARCH=sm_80, CUTE_DSL_KEEP=ir)
!copy_simt = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f32>, layout_copy_tv = <"(256,1):(1,0)">, tiler_mn = <"[64:1;4:1]">>
!copy_simt1 = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f32>, layout_copy_tv = <"((16,16),(1,(1,1))):((1,0),(0,(0,0)))">, tiler_mn = <"[16:1;1:0]">>
!copy_simt2 = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f32>, layout_copy_tv = <"((16,16),(1,(1,1))):((0,1),(0,(0,0)))">, tiler_mn = <"[16:1;1:0]">>
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(64,8):(1,64)">
!memref_gmem_f32_1 = !cute.memref<f32, gmem, align<16>, "(64,64):(1,64)">
!memref_gmem_f32_2 = !cute.memref<f32, gmem, "((1,1),1,2):((0,0),0,256)">
!memref_gmem_f32_3 = !cute.memref<f32, gmem, "((1,1),(1,2)):((0,0),(0,256))">
!memref_gmem_f32_4 = !cute.memref<f32, gmem, "(1,4,4):(0,16,1024)">
!memref_rmem_f32 = !cute.memref<f32, rmem, "(1,4,8):(0,1,4)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, "(1,4,4):(0,1,4)">
!memref_rmem_f32_2 = !cute.memref<f32, rmem, "((1,1),4,8):((0,0),1,4)">
!memref_rmem_f32_3 = !cute.memref<f32, rmem, "((1,1),(4,8)):((0,0),(1,4))">
!memref_smem_f32 = !cute.memref<f32, smem, align<16>, "(64,8):(1,64)">
!memref_smem_f32_1 = !cute.memref<f32, smem, "((1,1),1,2):((0,0),0,256)">
!memref_smem_f32_2 = !cute.memref<f32, smem, "((1,1),(1,2)):((0,0),(0,256))">
!memref_smem_f32_3 = !cute.memref<f32, smem, "(1,4,8):(0,16,64)">
!memref_smem_f32_4 = !cute.memref<f32, smem, "((1,1),4,8):((0,0),16,64)">
!memref_smem_f32_5 = !cute.memref<f32, smem, "((1,1),(4,8)):((0,0),(16,64))">
!memref_smem_i8 = !cute.memref<i8, smem, align<16>, "2048:1">
!mma_f32_f32_f32_1x1x1 = !cute.tiled_mma<!cute_nvgpu.atom.universal_fma<1x1x1, (f32, f32) -> f32 >, atom_layout_MNK = <"(16,16,1):(1,16,0)">, permutation_MNK = <"[_;_;_]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_simt_kernel_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o6464164_TiledCopy_TilerMN64141_TVLayouttiled256110_CopyAtom_ThrID10_TVLayo_0(%arg0: !memref_gmem_f32, %arg1: !memref_gmem_f32, %arg2: !memref_gmem_f32_1, %arg3: !copy_simt, %arg4: !mma_f32_f32_f32_1x1x1, %arg5: !mma_f32_f32_f32_1x1x1) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 256, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 256, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %shape = cute.make_shape() : () -> !cute.shape<"(64,8)">
      %stride = cute.make_stride() : () -> !cute.stride<"(1,64)">
      %lay = cute.make_layout(%shape, %stride) : !cute.layout<"(64,8):(1,64)">
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %iter_0 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<16>> to !cute.ptr<f32, smem, align<16>>
      %view = cute.make_view(%iter_0, %lay) : !memref_smem_f32
      %smem_1 = cute.memref.alloca() {smem.partition_id = 1 : i32} : !memref_smem_i8
      %iter_2 = cute.get_iter(%smem_1) : !memref_smem_i8
      %iter_3 = cute.recast_iter(%iter_2) : !cute.ptr<i8, smem, align<16>> to !cute.ptr<f32, smem, align<16>>
      %view_4 = cute.make_view(%iter_3, %lay) : !memref_smem_f32
      %coord = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %src_partitioned = cute.tiled.copy.partition_S(%arg3, %arg0, %coord) : (!copy_simt, !memref_gmem_f32, !cute.coord<"?">) -> !memref_gmem_f32_2
      %iter_5 = cute.get_iter(%src_partitioned) : !memref_gmem_f32_2
      %dst_partitioned = cute.tiled.copy.partition_D(%arg3, %view, %coord) : (!copy_simt, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_1
      %iter_6 = cute.get_iter(%dst_partitioned) : !memref_smem_f32_1
      %lay_7 = cute.get_layout(%src_partitioned) : !memref_gmem_f32_2
      %lay_8 = cute.get_layout(%dst_partitioned) : !memref_smem_f32_1
      %shape_9 = cute.make_shape() : () -> !cute.shape<"1">
      %lay_10 = cute.make_layout(%shape_9) : !cute.layout<"1:0">
      %append = cute.append_to_rank<2> (%lay_7, %lay_10) : !cute.layout<"((1,1),1,2):((0,0),0,256)">, !cute.layout<"1:0">
      %view_11 = cute.make_view(%iter_5, %append) : !memref_gmem_f32_2
      %grouped = cute.group_modes(%view_11) <1, 3> : (!memref_gmem_f32_2) -> !memref_gmem_f32_3
      %append_12 = cute.append_to_rank<2> (%lay_8, %lay_10) : !cute.layout<"((1,1),1,2):((0,0),0,256)">, !cute.layout<"1:0">
      %view_13 = cute.make_view(%iter_6, %append_12) : !memref_smem_f32_1
      %grouped_14 = cute.group_modes(%view_13) <1, 3> : (!memref_smem_f32_1) -> !memref_smem_f32_2
      cute.copy(%arg3, %grouped, %grouped_14) : (!copy_simt, !memref_gmem_f32_3, !memref_smem_f32_2)
      %src_partitioned_15 = cute.tiled.copy.partition_S(%arg3, %arg1, %coord) : (!copy_simt, !memref_gmem_f32, !cute.coord<"?">) -> !memref_gmem_f32_2
      %iter_16 = cute.get_iter(%src_partitioned_15) : !memref_gmem_f32_2
      %dst_partitioned_17 = cute.tiled.copy.partition_D(%arg3, %view_4, %coord) : (!copy_simt, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_1
      %iter_18 = cute.get_iter(%dst_partitioned_17) : !memref_smem_f32_1
      %lay_19 = cute.get_layout(%src_partitioned_15) : !memref_gmem_f32_2
      %lay_20 = cute.get_layout(%dst_partitioned_17) : !memref_smem_f32_1
      %append_21 = cute.append_to_rank<2> (%lay_19, %lay_10) : !cute.layout<"((1,1),1,2):((0,0),0,256)">, !cute.layout<"1:0">
      %view_22 = cute.make_view(%iter_16, %append_21) : !memref_gmem_f32_2
      %grouped_23 = cute.group_modes(%view_22) <1, 3> : (!memref_gmem_f32_2) -> !memref_gmem_f32_3
      %append_24 = cute.append_to_rank<2> (%lay_20, %lay_10) : !cute.layout<"((1,1),1,2):((0,0),0,256)">, !cute.layout<"1:0">
      %view_25 = cute.make_view(%iter_18, %append_24) : !memref_smem_f32_1
      %grouped_26 = cute.group_modes(%view_25) <1, 3> : (!memref_smem_f32_1) -> !memref_smem_f32_2
      cute.copy(%arg3, %grouped_23, %grouped_26) : (!copy_simt, !memref_gmem_f32_3, !memref_smem_f32_2)
      nvvm.barrier
      %ptn_A = cute.tiled.mma.partition A (%arg4, %view, %coord) : (!mma_f32_f32_f32_1x1x1, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_3
      %frg_A = cute.mma.make_fragment A (%arg4, %ptn_A) : (!mma_f32_f32_f32_1x1x1, !memref_smem_f32_3) -> !memref_rmem_f32
      %ptn_B = cute.tiled.mma.partition B (%arg4, %view_4, %coord) : (!mma_f32_f32_f32_1x1x1, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_3
      %frg_B = cute.mma.make_fragment B (%arg4, %ptn_B) : (!mma_f32_f32_f32_1x1x1, !memref_smem_f32_3) -> !memref_rmem_f32
      %ptn_C = cute.tiled.mma.partition C (%arg4, %arg2, %coord) : (!mma_f32_f32_f32_1x1x1, !memref_gmem_f32_1, !cute.coord<"?">) -> !memref_gmem_f32_4
      %frg_C = cute.mma.make_fragment C (%arg4, %ptn_C) : (!mma_f32_f32_f32_1x1x1, !memref_gmem_f32_4) -> !memref_rmem_f32_1
      cute.memref.store_vec(%cst, %frg_C) : (vector<16xf32>, !memref_rmem_f32_1) -> ()
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32>
      %1 = cute.make_tiled_copy(%atom) : !copy_simt1
      %2 = cute.make_tiled_copy(%atom) : !copy_simt2
      %src_partitioned_27 = cute.tiled.copy.partition_S(%1, %view, %coord) : (!copy_simt1, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_4
      %iter_28 = cute.get_iter(%src_partitioned_27) : !memref_smem_f32_4
      %retiled = cute.tiled.copy.retile(%1, %frg_A) : (!copy_simt1, !memref_rmem_f32) -> !memref_rmem_f32_2
      %iter_29 = cute.get_iter(%retiled) : !memref_rmem_f32_2
      %lay_30 = cute.get_layout(%src_partitioned_27) : !memref_smem_f32_4
      %lay_31 = cute.get_layout(%retiled) : !memref_rmem_f32_2
      %append_32 = cute.append_to_rank<2> (%lay_30, %lay_10) : !cute.layout<"((1,1),4,8):((0,0),16,64)">, !cute.layout<"1:0">
      %view_33 = cute.make_view(%iter_28, %append_32) : !memref_smem_f32_4
      %grouped_34 = cute.group_modes(%view_33) <1, 3> : (!memref_smem_f32_4) -> !memref_smem_f32_5
      %append_35 = cute.append_to_rank<2> (%lay_31, %lay_10) : !cute.layout<"((1,1),4,8):((0,0),1,4)">, !cute.layout<"1:0">
      %view_36 = cute.make_view(%iter_29, %append_35) : !memref_rmem_f32_2
      %grouped_37 = cute.group_modes(%view_36) <1, 3> : (!memref_rmem_f32_2) -> !memref_rmem_f32_3
      cute.copy(%1, %grouped_34, %grouped_37) : (!copy_simt1, !memref_smem_f32_5, !memref_rmem_f32_3)
      %src_partitioned_38 = cute.tiled.copy.partition_S(%2, %view_4, %coord) : (!copy_simt2, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_4
      %iter_39 = cute.get_iter(%src_partitioned_38) : !memref_smem_f32_4
      %retiled_40 = cute.tiled.copy.retile(%2, %frg_B) : (!copy_simt2, !memref_rmem_f32) -> !memref_rmem_f32_2
      %iter_41 = cute.get_iter(%retiled_40) : !memref_rmem_f32_2
      %lay_42 = cute.get_layout(%src_partitioned_38) : !memref_smem_f32_4
      %lay_43 = cute.get_layout(%retiled_40) : !memref_rmem_f32_2
      %append_44 = cute.append_to_rank<2> (%lay_42, %lay_10) : !cute.layout<"((1,1),4,8):((0,0),16,64)">, !cute.layout<"1:0">
      %view_45 = cute.make_view(%iter_39, %append_44) : !memref_smem_f32_4
      %grouped_46 = cute.group_modes(%view_45) <1, 3> : (!memref_smem_f32_4) -> !memref_smem_f32_5
      %append_47 = cute.append_to_rank<2> (%lay_43, %lay_10) : !cute.layout<"((1,1),4,8):((0,0),1,4)">, !cute.layout<"1:0">
      %view_48 = cute.make_view(%iter_41, %append_47) : !memref_rmem_f32_2
      %grouped_49 = cute.group_modes(%view_48) <1, 3> : (!memref_rmem_f32_2) -> !memref_rmem_f32_3
      cute.copy(%2, %grouped_46, %grouped_49) : (!copy_simt2, !memref_smem_f32_5, !memref_rmem_f32_3)
      cute.gemm(%arg4, %frg_C, %frg_A, %frg_B, %frg_C) : (!mma_f32_f32_f32_1x1x1, !memref_rmem_f32_1, !memref_rmem_f32, !memref_rmem_f32, !memref_rmem_f32_1)
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat32648164_FakeTensorFloat32648164_FakeTensorFloat326464164_FakeStream(%arg0: !memref_gmem_f32, %arg1: !memref_gmem_f32, %arg2: !memref_gmem_f32_1, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c256_i32 = arith.constant 256 : i32
    %c166912_i64 = arith.constant 166912 : i64
    %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32>
    %0 = cute.make_tiled_copy(%atom) : !copy_simt
    %atom_0 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_fma<1x1x1, (f32, f32) -> f32 >
    %1 = cute.make_tiled_mma(%atom_0) : !mma_f32_f32_f32_1x1x1
    %2 = cute.kernel_smem_size @kernels::@kernel_cutlass_simt_kernel_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o6464164_TiledCopy_TilerMN64141_TVLayouttiled256110_CopyAtom_ThrID10_TVLayo_0 : i64
    %3 = arith.cmpi sgt, %2, %c166912_i64 : i64
    scf.if %3 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_simt_kernel_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o6464164_TiledCopy_TilerMN64141_TVLayouttiled256110_CopyAtom_ThrID10_TVLayo_0' launch shared memory exceeds current GPU arch sm_80 allowed. Allocated: {} bytes. Max: 166912 bytes.\0A\0A", %2) : i64
    }
    %4 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c256_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %2, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%4] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%4] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %5 = cuda.launch_ex @kernels::@kernel_cutlass_simt_kernel_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o648164_tensorptrf32gmemalign16o6464164_TiledCopy_TilerMN64141_TVLayouttiled256110_CopyAtom_ThrID10_TVLayo_0<%4> (%arg0, %arg1, %arg2, %0, %1, %1) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!memref_gmem_f32, !memref_gmem_f32, !memref_gmem_f32_1, !copy_simt, !mma_f32_f32_f32_1x1x1, !mma_f32_f32_f32_1x1x1) -> !cuda.result
    %6 = cuda.cast %5 : !cuda.result -> i32
    cuda.return_if_error %6 : i32
    return %c0_i32 : i32
  }
}

