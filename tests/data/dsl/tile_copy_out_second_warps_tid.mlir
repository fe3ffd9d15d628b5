// made by: python tests/dsl_kernels.py tests/data/dsl/tile_copy_out_second_warps_tid.mlir copy_out_warps=second s2g_thread=tid (the CuTe DSL, CUTE_DSL_ARCH=sm_80, CUTE_DSL_KEEP=ir)
!copy_ldgsts = !cute.tiled_copy<!cute_nvgpu.atom.simt_async_copy<f16, cache = global, 128 b>, layout_copy_tv = <"((4,32),8):((256,1),32)">, tiler_mn = <"[32:1;32:1]">>
!copy_ldgsts1 = !cute.tiled_copy<!cute_nvgpu.atom.simt_async_copy<f16, cache = global, 128 b>, layout_copy_tv = <"((32,4),8):((1,256),32)">, tiler_mn = <"[32:1;32:1]">>
!copy_ldsm_4 = !cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>, layout_copy_tv = <"((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))">, tiler_mn = <"[32:1;16:1]">>
!copy_ldsm_4_1 = !cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>, layout_copy_tv = <"((4,8,2,2),((2,2),(2,1))):((64,1,0,8),((32,256),(16,0)))">, tiler_mn = <"[32:1;16:1]">>
!copy_simt = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f16, 128 b>, layout_copy_tv = <"((8,16),8):((128,1),16)">, tiler_mn = <"[16:1;64:1]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(64,32):(32,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f16_2 = !cute.memref<f16, gmem, align<16>, "((8,1),2,1):((1,0),1024,0)">
!memref_gmem_f16_3 = !cute.memref<f16, gmem, align<16>, "((8,1),(2,1)):((1,0),(1024,0))">
!memref_gmem_f16_4 = !cute.memref<f16, gmem, align<4>, "((2,2),2,4):((1,512),2048,16)">
!memref_gmem_f16_5 = !cute.memref<f16, gmem, align<16>, "((8,1),4,1):((1,0),1024,0)">
!memref_gmem_f16_6 = !cute.memref<f16, gmem, align<16>, "((8,1),(4,1)):((1,0),(1024,0))">
!memref_rmem_f16 = !cute.memref<f16, rmem, align<16>, "((2,2,2),2,2):((1,2,4),16,8)">
!memref_rmem_f16_1 = !cute.memref<f16, rmem, align<8>, "((2,2),4,2):((1,2),8,4)">
!memref_rmem_f16_2 = !cute.memref<f16, rmem, align<16>, "((8,1),2,2):((1,0),16,8)">
!memref_rmem_f16_3 = !cute.memref<f16, rmem, align<16>, "((8,1),(2,2)):((1,0),(16,8))">
!memref_rmem_f16_4 = !cute.memref<f16, rmem, align<8>, "(((4,2),1),2,2):(((1,8),0),16,4)">
!memref_rmem_f16_5 = !cute.memref<f16, rmem, align<8>, "(((4,2),1),(2,2)):(((1,8),0),(16,4))">
!memref_rmem_f16_6 = !cute.memref<f16, rmem, align<32>, "((2,2),2,4):((1,2),4,8)">
!memref_rmem_f16_7 = !cute.memref<f16, rmem, align<32>, "(2,16):(1,2)">
!memref_rmem_f16_8 = !cute.memref<f16, rmem, align<32>, "((8,1),4,1):((1,0),8,0)">
!memref_rmem_f16_9 = !cute.memref<f16, rmem, align<32>, "((8,1),(4,1)):((1,0),(8,0))">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<16>, "((2,2),2,4):((1,2),4,8)">
!memref_smem_f16 = !cute.memref<f16, smem, align<16>, S<2,4,3>, "(64,32):(32,1)">
!memref_smem_f16_1 = !cute.memref<f16, smem, align<16>, S<3,4,3>, "(64,64):(64,1)">
!memref_smem_f16_2 = !cute.memref<f16, smem, align<16>, S<2,4,3>, "((8,1),2,1):((1,0),1024,0)">
!memref_smem_f16_3 = !cute.memref<f16, smem, align<16>, S<2,4,3>, "((8,1),(2,1)):((1,0),(1024,0))">
!memref_smem_f16_4 = !cute.memref<f16, smem, align<4>, S<2,4,3>, "((2,2,2),2,2):((1,256,8),1024,16)">
!memref_smem_f16_5 = !cute.memref<f16, smem, align<4>, S<2,4,3>, "((2,2),4,2):((1,8),512,16)">
!memref_smem_f16_6 = !cute.memref<f16, smem, align<16>, S<2,4,3>, "((8,1),2,2):((1,0),1024,16)">
!memref_smem_f16_7 = !cute.memref<f16, smem, align<16>, S<2,4,3>, "((8,1),(2,2)):((1,0),(1024,16))">
!memref_smem_f16_8 = !cute.memref<f16, smem, align<4>, S<3,4,3>, "((2,2),2,4):((1,512),2048,16)">
!memref_smem_f16_9 = !cute.memref<f16, smem, align<4>, S<3,4,3>, "(2,(2,2,4)):(1,(512,2048,16))">
!memref_smem_f16_10 = !cute.memref<f16, smem, align<16>, S<3,4,3>, "((8,1),4,1):((1,0),1024,0)">
!memref_smem_f16_11 = !cute.memref<f16, smem, align<16>, S<3,4,3>, "((8,1),(4,1)):((1,0),(1024,0))">
!memref_smem_i8 = !cute.memref<i8, smem, align<16>, "4096:1">
!memref_smem_i8_1 = !cute.memref<i8, smem, align<16>, "8192:1">
!mma_f16_f16_f32_16x8x16 = !cute.tiled_mma<!cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32) >, atom_layout_MNK = <"(2,2,1):(1,2,0)">, permutation_MNK = <"[32:1;32:1;16:1]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tile_kernel_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6464641_TiledCopy_TilerMN321321_TVLayouttiled4328256132_CopyAtom_ThrID10_0(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16, %arg2: !memref_gmem_f16_1, %arg3: !copy_ldgsts, %arg4: !copy_ldgsts1, %arg5: !copy_simt, %arg6: !mma_f16_f16_f32_16x8x16) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 256, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 256, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %cst = arith.constant dense<0.000000e+00> : vector<32xf32>
      %c128_i32 = arith.constant 128 : i32
      %c1_i32 = arith.constant 1 : i32
      %c4_i32 = arith.constant 4 : i32
      %c32_i32 = arith.constant 32 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %shape = cute.make_shape() : () -> !cute.shape<"(64,32)">
      %stride = cute.make_stride() : () -> !cute.stride<"(32,1)">
      %lay = cute.make_layout(%shape, %stride) : !cute.layout<"(64,32):(32,1)">
      %shape_0 = cute.make_shape() : () -> !cute.shape<"(64,64)">
      %stride_1 = cute.make_stride() : () -> !cute.stride<"(64,1)">
      %lay_2 = cute.make_layout(%shape_0, %stride_1) : !cute.layout<"(64,64):(64,1)">
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %iter_3 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<16>> to !cute.ptr<f16, smem, align<16>, S<2,4,3>>
      %view = cute.make_view(%iter_3, %lay) : !memref_smem_f16
      %smem_4 = cute.memref.alloca() {smem.partition_id = 1 : i32} : !memref_smem_i8
      %iter_5 = cute.get_iter(%smem_4) : !memref_smem_i8
      %iter_6 = cute.recast_iter(%iter_5) : !cute.ptr<i8, smem, align<16>> to !cute.ptr<f16, smem, align<16>, S<2,4,3>>
      %view_7 = cute.make_view(%iter_6, %lay) : !memref_smem_f16
      %smem_8 = cute.memref.alloca() {smem.partition_id = 1 : i32} : !memref_smem_i8_1
      %iter_9 = cute.get_iter(%smem_8) : !memref_smem_i8_1
      %iter_10 = cute.recast_iter(%iter_9) : !cute.ptr<i8, smem, align<16>> to !cute.ptr<f16, smem, align<16>, S<3,4,3>>
      %view_11 = cute.make_view(%iter_10, %lay_2) : !memref_smem_f16_1
      %1 = nvvm.read.ptx.sreg.tid.y : i32
      %2 = nvvm.read.ptx.sreg.tid.z : i32
      %3 = nvvm.read.ptx.sreg.ntid.x : i32
      %4 = nvvm.read.ptx.sreg.ntid.y : i32
      %5 = arith.muli %1, %3 : i32
      %6 = arith.addi %0, %5 : i32
      %7 = arith.muli %2, %3 : i32
      %8 = arith.muli %7, %4 : i32
      %9 = arith.addi %6, %8 : i32
      %10 = arith.floordivsi %9, %c32_i32 : i32
      %11 = cute_nvgpu.arch.make_warp_uniform(%10) : i32
      %12 = cute_nvgpu.arch.make_warp_uniform(%11) : i32
      %13 = arith.cmpi slt, %12, %c4_i32 : i32
      scf.if %13 {
        %coord = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
        %src_partitioned = cute.tiled.copy.partition_S(%arg3, %arg0, %coord) : (!copy_ldgsts, !memref_gmem_f16, !cute.coord<"?">) -> !memref_gmem_f16_2
        %iter_12 = cute.get_iter(%src_partitioned) : !memref_gmem_f16_2
        %dst_partitioned = cute.tiled.copy.partition_D(%arg3, %view, %coord) : (!copy_ldgsts, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_2
        %iter_13 = cute.get_iter(%dst_partitioned) : !memref_smem_f16_2
        %lay_14 = cute.get_layout(%src_partitioned) : !memref_gmem_f16_2
        %lay_15 = cute.get_layout(%dst_partitioned) : !memref_smem_f16_2
        %shape_16 = cute.make_shape() : () -> !cute.shape<"1">
        %lay_17 = cute.make_layout(%shape_16) : !cute.layout<"1:0">
        %append = cute.append_to_rank<2> (%lay_14, %lay_17) : !cute.layout<"((8,1),2,1):((1,0),1024,0)">, !cute.layout<"1:0">
        %view_18 = cute.make_view(%iter_12, %append) : !memref_gmem_f16_2
        %grouped = cute.group_modes(%view_18) <1, 3> : (!memref_gmem_f16_2) -> !memref_gmem_f16_3
        %append_19 = cute.append_to_rank<2> (%lay_15, %lay_17) : !cute.layout<"((8,1),2,1):((1,0),1024,0)">, !cute.layout<"1:0">
        %view_20 = cute.make_view(%iter_13, %append_19) : !memref_smem_f16_2
        %grouped_21 = cute.group_modes(%view_20) <1, 3> : (!memref_smem_f16_2) -> !memref_smem_f16_3
        cute.copy(%arg3, %grouped, %grouped_21) : (!copy_ldgsts, !memref_gmem_f16_3, !memref_smem_f16_3)
        %src_partitioned_22 = cute.tiled.copy.partition_S(%arg3, %arg1, %coord) : (!copy_ldgsts, !memref_gmem_f16, !cute.coord<"?">) -> !memref_gmem_f16_2
        %iter_23 = cute.get_iter(%src_partitioned_22) : !memref_gmem_f16_2
        %dst_partitioned_24 = cute.tiled.copy.partition_D(%arg3, %view_7, %coord) : (!copy_ldgsts, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_2
        %iter_25 = cute.get_iter(%dst_partitioned_24) : !memref_smem_f16_2
        %lay_26 = cute.get_layout(%src_partitioned_22) : !memref_gmem_f16_2
        %lay_27 = cute.get_layout(%dst_partitioned_24) : !memref_smem_f16_2
        %append_28 = cute.append_to_rank<2> (%lay_26, %lay_17) : !cute.layout<"((8,1),2,1):((1,0),1024,0)">, !cute.layout<"1:0">
        %view_29 = cute.make_view(%iter_23, %append_28) : !memref_gmem_f16_2
        %grouped_30 = cute.group_modes(%view_29) <1, 3> : (!memref_gmem_f16_2) -> !memref_gmem_f16_3
        %append_31 = cute.append_to_rank<2> (%lay_27, %lay_17) : !cute.layout<"((8,1),2,1):((1,0),1024,0)">, !cute.layout<"1:0">
        %view_32 = cute.make_view(%iter_25, %append_31) : !memref_smem_f16_2
        %grouped_33 = cute.group_modes(%view_32) <1, 3> : (!memref_smem_f16_2) -> !memref_smem_f16_3
        cute.copy(%arg3, %grouped_30, %grouped_33) : (!copy_ldgsts, !memref_gmem_f16_3, !memref_smem_f16_3)
        nvvm.cp.async.commit.group
        nvvm.cp.async.wait.group 0
        nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
        %iter_34 = cute.recast_iter(%iter_3) : !cute.ptr<f16, smem, align<16>, S<2,4,3>> to !cute.ptr<f16, smem, align<16>, S<2,4,3>>
        %view_35 = cute.make_view(%iter_34, %lay) : !memref_smem_f16
        %ptn_A = cute.tiled.mma.partition A (%arg6, %view_35, %coord) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_4
        %frg_A = cute.mma.make_fragment A (%arg6, %ptn_A) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_4) -> !memref_rmem_f16
        %ptn_B = cute.tiled.mma.partition B (%arg6, %view_7, %coord) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_5
        %frg_B = cute.mma.make_fragment B (%arg6, %ptn_B) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_5) -> !memref_rmem_f16_1
        %ptn_C = cute.tiled.mma.partition C (%arg6, %arg2, %coord) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f16_1, !cute.coord<"?">) -> !memref_gmem_f16_4
        %frg_C = cute.mma.make_fragment C (%arg6, %ptn_C) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f16_4) -> !memref_rmem_f32
        cute.memref.store_vec(%cst, %frg_C) : (vector<32xf32>, !memref_rmem_f32) -> ()
        %atom = cute.make_atom() : () -> !cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>
        %15 = cute.make_tiled_copy(%atom) : !copy_ldsm_4
        %16 = cute.make_tiled_copy(%atom) : !copy_ldsm_4_1
        %src_partitioned_36 = cute.tiled.copy.partition_S(%15, %view_35, %coord) : (!copy_ldsm_4, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_6
        %iter_37 = cute.get_iter(%src_partitioned_36) : !memref_smem_f16_6
        %retiled = cute.tiled.copy.retile(%15, %frg_A) : (!copy_ldsm_4, !memref_rmem_f16) -> !memref_rmem_f16_2
        %iter_38 = cute.get_iter(%retiled) : !memref_rmem_f16_2
        %lay_39 = cute.get_layout(%src_partitioned_36) : !memref_smem_f16_6
        %lay_40 = cute.get_layout(%retiled) : !memref_rmem_f16_2
        %append_41 = cute.append_to_rank<2> (%lay_39, %lay_17) : !cute.layout<"((8,1),2,2):((1,0),1024,16)">, !cute.layout<"1:0">
        %view_42 = cute.make_view(%iter_37, %append_41) : !memref_smem_f16_6
        %grouped_43 = cute.group_modes(%view_42) <1, 3> : (!memref_smem_f16_6) -> !memref_smem_f16_7
        %append_44 = cute.append_to_rank<2> (%lay_40, %lay_17) : !cute.layout<"((8,1),2,2):((1,0),16,8)">, !cute.layout<"1:0">
        %view_45 = cute.make_view(%iter_38, %append_44) : !memref_rmem_f16_2
        %grouped_46 = cute.group_modes(%view_45) <1, 3> : (!memref_rmem_f16_2) -> !memref_rmem_f16_3
        cute.copy(%15, %grouped_43, %grouped_46) : (!copy_ldsm_4, !memref_smem_f16_7, !memref_rmem_f16_3)
        %src_partitioned_47 = cute.tiled.copy.partition_S(%16, %view_7, %coord) : (!copy_ldsm_4_1, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_6
        %iter_48 = cute.get_iter(%src_partitioned_47) : !memref_smem_f16_6
        %retiled_49 = cute.tiled.copy.retile(%16, %frg_B) : (!copy_ldsm_4_1, !memref_rmem_f16_1) -> !memref_rmem_f16_4
        %iter_50 = cute.get_iter(%retiled_49) : !memref_rmem_f16_4
        %lay_51 = cute.get_layout(%src_partitioned_47) : !memref_smem_f16_6
        %lay_52 = cute.get_layout(%retiled_49) : !memref_rmem_f16_4
        %append_53 = cute.append_to_rank<2> (%lay_51, %lay_17) : !cute.layout<"((8,1),2,2):((1,0),1024,16)">, !cute.layout<"1:0">
        %view_54 = cute.make_view(%iter_48, %append_53) : !memref_smem_f16_6
        %grouped_55 = cute.group_modes(%view_54) <1, 3> : (!memref_smem_f16_6) -> !memref_smem_f16_7
        %append_56 = cute.append_to_rank<2> (%lay_52, %lay_17) : !cute.layout<"(((4,2),1),2,2):(((1,8),0),16,4)">, !cute.layout<"1:0">
        %view_57 = cute.make_view(%iter_50, %append_56) : !memref_rmem_f16_4
        %grouped_58 = cute.group_modes(%view_57) <1, 3> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
        cute.copy(%16, %grouped_55, %grouped_58) : (!copy_ldsm_4_1, !memref_smem_f16_7, !memref_rmem_f16_5)
        cute.gemm(%arg6, %frg_C, %frg_A, %frg_B, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16, !memref_rmem_f16_1, !memref_rmem_f32)
        %ptn_C_59 = cute.tiled.mma.partition C (%arg6, %view_11, %coord) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_1, !cute.coord<"?">) -> !memref_smem_f16_8
        %rmem = cute.memref.alloca() : !memref_rmem_f16_6
        %17 = cute.memref.load_vec(%frg_C) : (!memref_rmem_f32) -> vector<32xf32>
        %18 = arith.truncf %17 : vector<32xf32> to vector<32xf16>
        %coord_60 = cute.make_coord() : () -> !cute.coord<"_">
        %slice = cute.slice(%rmem, %coord_60) : !memref_rmem_f16_6, !cute.coord<"_">
        cute.memref.store_vec(%18, %slice) : (vector<32xf16>, !memref_rmem_f16_6) -> ()
        %lay_61 = cute.get_layout(%rmem) : !memref_rmem_f16_6
        %lay_62 = cute.get_layout(%ptn_C_59) : !memref_smem_f16_8
        %rinv = cute.right_inverse(%lay_62) : (!cute.layout<"((2,2),2,4):((1,512),2048,16)">) -> !cute.layout<"2:1">
        %19 = cute.composition(%lay_61, %rinv) : (!cute.layout<"((2,2),2,4):((1,2),4,8)">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
        %coalesce = cute.coalesce(%19) : (!cute.layout<"2:1">) -> !cute.layout<"2:1">
        %20 = cute.composition(%rinv, %coalesce) : (!cute.layout<"2:1">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
        %div = cute.logical_divide(%rmem, %20) : !memref_rmem_f16_6, !cute.layout<"2:1">
        %div_63 = cute.logical_divide(%ptn_C_59, %20) : !memref_smem_f16_8, !cute.layout<"2:1">
        %shape_64 = cute.make_shape() : () -> !cute.shape<"2">
        %lay_65 = cute.make_layout(%shape_64) : !cute.layout<"2:1">
        %div_66 = cute.logical_divide(%div, %lay_65) : !memref_rmem_f16_7, !cute.layout<"2:1">
        %div_67 = cute.logical_divide(%div_63, %lay_65) : !memref_smem_f16_9, !cute.layout<"2:1">
        %atom_68 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f16, 32 b>
        cute.copy(%atom_68, %div_66, %div_67) : (!cute_nvgpu.atom.universal_copy<f16, 32 b>, !memref_rmem_f16_7, !memref_smem_f16_9)
      }
      nvvm.barrier
      %14 = arith.cmpi sge, %12, %c4_i32 : i32
      scf.if %14 {
        %coord = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
        %src_partitioned = cute.tiled.copy.partition_S(%arg5, %view_11, %coord) : (!copy_simt, !memref_smem_f16_1, !cute.coord<"?">) -> !memref_smem_f16_10
        %iter_12 = cute.get_iter(%src_partitioned) : !memref_smem_f16_10
        %lay_13 = cute.get_layout(%src_partitioned) : !memref_smem_f16_10
        %rmem = cute.memref.alloca() : !memref_rmem_f16_8
        %iter_14 = cute.get_iter(%rmem) : !memref_rmem_f16_8
        %lay_15 = cute.get_layout(%rmem) : !memref_rmem_f16_8
        %shape_16 = cute.make_shape() : () -> !cute.shape<"1">
        %lay_17 = cute.make_layout(%shape_16) : !cute.layout<"1:0">
        %append = cute.append_to_rank<2> (%lay_13, %lay_17) : !cute.layout<"((8,1),4,1):((1,0),1024,0)">, !cute.layout<"1:0">
        %view_18 = cute.make_view(%iter_12, %append) : !memref_smem_f16_10
        %grouped = cute.group_modes(%view_18) <1, 3> : (!memref_smem_f16_10) -> !memref_smem_f16_11
        %append_19 = cute.append_to_rank<2> (%lay_15, %lay_17) : !cute.layout<"((8,1),4,1):((1,0),8,0)">, !cute.layout<"1:0">
        %view_20 = cute.make_view(%iter_14, %append_19) : !memref_rmem_f16_8
        %grouped_21 = cute.group_modes(%view_20) <1, 3> : (!memref_rmem_f16_8) -> !memref_rmem_f16_9
        cute.copy(%arg5, %grouped, %grouped_21) : (!copy_simt, !memref_smem_f16_11, !memref_rmem_f16_9)
        %dst_partitioned = cute.tiled.copy.partition_D(%arg5, %arg2, %coord) : (!copy_simt, !memref_gmem_f16_1, !cute.coord<"?">) -> !memref_gmem_f16_5
        %iter_22 = cute.get_iter(%dst_partitioned) : !memref_gmem_f16_5
        %lay_23 = cute.get_layout(%dst_partitioned) : !memref_gmem_f16_5
        %append_24 = cute.append_to_rank<2> (%lay_23, %lay_17) : !cute.layout<"((8,1),4,1):((1,0),1024,0)">, !cute.layout<"1:0">
        %view_25 = cute.make_view(%iter_22, %append_24) : !memref_gmem_f16_5
        %grouped_26 = cute.group_modes(%view_25) <1, 3> : (!memref_gmem_f16_5) -> !memref_gmem_f16_6
        cute.copy(%arg5, %grouped_21, %grouped_26) : (!copy_simt, !memref_rmem_f16_9, !memref_gmem_f16_6)
      }
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat166432321_FakeTensorFloat166432321_FakeTensorFloat166464641_FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16, %arg2: !memref_gmem_f16_1, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c256_i32 = arith.constant 256 : i32
    %c166912_i64 = arith.constant 166912 : i64
    %atom = cute.make_atom() : () -> !cute_nvgpu.atom.simt_async_copy<f16, cache = global, 128 b>
    %0 = cute.make_tiled_copy(%atom) : !copy_ldgsts
    %1 = cute.make_tiled_copy(%atom) : !copy_ldgsts1
    %atom_0 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f16, 128 b>
    %2 = cute.make_tiled_copy(%atom_0) : !copy_simt
    %atom_1 = cute.make_atom() : () -> !cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32) >
    %3 = cute.make_tiled_mma(%atom_1) : !mma_f16_f16_f32_16x8x16
    %4 = cute.kernel_smem_size @kernels::@kernel_cutlass_tile_kernel_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6464641_TiledCopy_TilerMN321321_TVLayouttiled4328256132_CopyAtom_ThrID10_0 : i64
    %5 = arith.cmpi sgt, %4, %c166912_i64 : i64
    scf.if %5 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tile_kernel_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6464641_TiledCopy_TilerMN321321_TVLayouttiled4328256132_CopyAtom_ThrID10_0' launch shared memory exceeds current GPU arch sm_80 allowed. Allocated: {} bytes. Max: 166912 bytes.\0A\0A", %4) : i64
    }
    %6 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c256_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %4, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %7 = cuda.launch_ex @kernels::@kernel_cutlass_tile_kernel_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6432321_tensorptrf16gmemalign16o6464641_TiledCopy_TilerMN321321_TVLayouttiled4328256132_CopyAtom_ThrID10_0<%6> (%arg0, %arg1, %arg2, %0, %1, %2, %3) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!memref_gmem_f16, !memref_gmem_f16, !memref_gmem_f16_1, !copy_ldgsts, !copy_ldgsts1, !copy_simt, !mma_f16_f16_f32_16x8x16) -> !cuda.result
    %8 = cuda.cast %7 : !cuda.result -> i32
    cuda.return_if_error %8 : i32
    return %c0_i32 : i32
  }
}

