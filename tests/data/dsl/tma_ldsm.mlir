// made by: python tests/dsl_tma_kernel.py tests/data/dsl/tma_ldsm.mlir mma=sync (the CuTe DSL, CUTE_DSL_ARCH=sm_90a, CUTE_DSL_KEEP=ir)
!copy_ldsm_4 = !cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>, layout_copy_tv = <"((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))">, tiler_mn = <"[32:1;16:1]">>
!copy_ldsm_4_1 = !cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>, layout_copy_tv = <"((4,8,2,2),((2,2),(2,1))):((64,1,0,8),((32,256),(16,0)))">, tiler_mn = <"[32:1;16:1]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(64,64):(72,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f32_1 = !cute.memref<f32, gmem, align<8>, "((2,2),2,4):((1,512),2048,16)">
!memref_gmem_f32_2 = !cute.memref<f32, gmem, align<8>, "(2,(2,2,4)):(1,(512,2048,16))">
!memref_rmem_f16 = !cute.memref<f16, rmem, align<16>, "((2,2,2),2,4):((1,2,4),32,8)">
!memref_rmem_f16_1 = !cute.memref<f16, rmem, align<8>, "((2,2),4,4):((1,2),16,4)">
!memref_rmem_f16_2 = !cute.memref<f16, rmem, align<16>, "((8,1),2,4):((1,0),32,8)">
!memref_rmem_f16_3 = !cute.memref<f16, rmem, align<8>, "(((4,2),1),2,4):(((1,16),0),32,4)">
!memref_rmem_f16_4 = !cute.memref<f16, rmem, align<16>, "((8,1),2):((1,0),32)">
!memref_rmem_f16_5 = !cute.memref<f16, rmem, align<16>, "((8,1),(2)):((1,0),(32))">
!memref_rmem_f16_6 = !cute.memref<f16, rmem, align<8>, "(((4,2),1),2):(((1,16),0),32)">
!memref_rmem_f16_7 = !cute.memref<f16, rmem, align<8>, "(((4,2),1),(2)):(((1,16),0),(32))">
!memref_rmem_f16_8 = !cute.memref<f16, rmem, align<16>, "((2,2,2),2):((1,2,4),32)">
!memref_rmem_f16_9 = !cute.memref<f16, rmem, align<8>, "((2,2),4):((1,2),16)">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<16>, "((2,2),2,4):((1,2),4,8)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, align<16>, "(2,16):(1,2)">
!memref_smem_f16 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8,8),(64,1)):((64,512),(1,0))">
!memref_smem_f16_1 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((8,8),(64,1))):(((64,512),(1,0)))">
!memref_smem_f16_2 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1)):((1,0))">
!memref_smem_f16_3 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),1):((1,0),0)">
!memref_smem_f16_4 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),(1)):((1,0),(0))">
!memref_smem_f16_5 = !cute.memref<f16, smem, align<4>, S<3,4,3>, "((2,2,2),2,4):((1,512,8),2048,16)">
!memref_smem_f16_6 = !cute.memref<f16, smem, align<4>, S<3,4,3>, "((2,2),4,4):((1,8),1024,16)">
!memref_smem_f16_7 = !cute.memref<f16, smem, align<16>, S<3,4,3>, "((8,1),2,4):((1,0),2048,16)">
!memref_smem_f16_8 = !cute.memref<f16, smem, align<16>, S<3,4,3>, "((8,1),2):((1,0),2048)">
!memref_smem_f16_9 = !cute.memref<f16, smem, align<16>, S<3,4,3>, "((8,1),(2)):((1,0),(2048))">
!memref_smem_i8 = !cute.memref<i8, smem, align<1024>, "17408:1">
!mma_f16_f16_f32_16x8x16 = !cute.tiled_mma<!cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32) >, atom_layout_MNK = <"(2,2,1):(1,2,0)">, permutation_MNK = <"[32:1;32:1;16:1]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_t_0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_16x8x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg8: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %cst = arith.constant dense<0.000000e+00> : vector<32xf32>
      %c10000000_i32 = arith.constant 10000000 : i32
      %c16384_i32 = arith.constant 16384 : i32
      %c1_i32 = arith.constant 1 : i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
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
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32, smem.struct_fields = ["full:8:0", "a:8192:1024", "b:8192:9216"]} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"1024">
      %ptr = cute.add_offset(%iter, %int_tuple) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"1024">) -> !cute.ptr<i8, smem, align<1024>>
      %int_tuple_0 = cute.make_int_tuple() : () -> !cute.int_tuple<"9216">
      %ptr_1 = cute.add_offset(%iter, %int_tuple_0) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"9216">) -> !cute.ptr<i8, smem, align<1024>>
      %iter_2 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<i64, smem, align<1024>>
      %13 = cute.composed_get_outer(%arg6) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %iter_3 = cute.recast_iter(%ptr) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view = cute.make_view(%iter_3, %13) : !memref_smem_f16
      %14 = cute.composed_get_outer(%arg7) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %iter_4 = cute.recast_iter(%ptr_1) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view_5 = cute.make_view(%iter_4, %14) : !memref_smem_f16
      %15 = cute.composed_get_outer(%arg8) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %view_6 = cute.make_view(%iter_4, %15) : !memref_smem_f16
      %16 = arith.cmpi eq, %12, %c0_i32 : i32
      scf.if %16 {
        %22 = nvvm.elect.sync -> i1
        scf.if %22 {
          %23 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          nvvm.mbarrier.init %23, %c1_i32 : !llvm.ptr<3>, i32
        }
      }
      nvvm.fence.mbarrier.init
      nvvm.barrier
      %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
      %coord = cute.make_coord() : () -> !cute.coord<"(0,0)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %tiled_view_7 = cute.local_tile(%arg3, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_8 = cute.group_modes(%tiled_view) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">
      %coord_9 = cute.make_coord() : () -> !cute.coord<"0">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg0, %coord_9, %lay, %grouped, %grouped_8) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_10 = cute.get_iter(%res_smem_tensor) : !memref_smem_f16_2
      %grouped_11 = cute.group_modes(%view_6) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_12 = cute.group_modes(%tiled_view_7) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">
      %res_smem_tensor_13, %res_target_tensors_14 = cute_nvgpu.atom.tma_partition(%arg2, %coord_9, %lay, %grouped_11, %grouped_12) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_15 = cute.get_iter(%res_smem_tensor_13) : !memref_smem_f16_2
      scf.if %16 {
        %22 = nvvm.elect.sync -> i1
        scf.if %22 {
          %27 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          %28 = nvvm.mbarrier.arrive.expect_tx %27, %c16384_i32 : !llvm.ptr<3>, i32 -> i64
        }
        %lay_133 = cute.get_layout(%res_target_tensors) : !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_134 = cute.get_layout(%res_smem_tensor) : !memref_smem_f16_2
        %append_135 = cute.append_to_rank<2> (%lay_133, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_136 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_136) : (!cute.int_tuple<"(0,0)">) -> !cute.arith_tuple_iter<"(0,0)">
        %view_137 = cute.make_view(%int_tup_iter, %append_135) : !cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_138 = cute.group_modes(%view_137) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_139 = cute.append_to_rank<2> (%lay_134, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_140 = cute.make_view(%iter_10, %append_139) : !memref_smem_f16_3
        %grouped_141 = cute.group_modes(%view_140) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_4
        %23 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %24 = cute_nvgpu.atom.set_value<tma_bar>(%23, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%24, %grouped_138, %grouped_141) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_4)
        %lay_142 = cute.get_layout(%res_target_tensors_14) : !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_143 = cute.get_layout(%res_smem_tensor_13) : !memref_smem_f16_2
        %append_144 = cute.append_to_rank<2> (%lay_142, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %view_145 = cute.make_view(%int_tup_iter, %append_144) : !cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_146 = cute.group_modes(%view_145) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_147 = cute.append_to_rank<2> (%lay_143, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_148 = cute.make_view(%iter_15, %append_147) : !memref_smem_f16_3
        %grouped_149 = cute.group_modes(%view_148) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_4
        %25 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %26 = cute_nvgpu.atom.set_value<tma_bar>(%25, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%26, %grouped_146, %grouped_149) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_4)
      }
      %17 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %17, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
      %coord_16 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %view, %coord_16) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_5
      %frg_A = cute.mma.make_fragment A (%arg5, %ptn_A) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_5) -> !memref_rmem_f16
      %ptn_B = cute.tiled.mma.partition B (%arg5, %view_5, %coord_16) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_6
      %frg_B = cute.mma.make_fragment B (%arg5, %ptn_B) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_6) -> !memref_rmem_f16_1
      %ptn_C = cute.tiled.mma.partition C (%arg5, %arg4, %coord_16) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f32, !cute.coord<"?">) -> !memref_gmem_f32_1
      %frg_C = cute.mma.make_fragment C (%arg5, %ptn_C) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f32_1) -> !memref_rmem_f32
      %lay_17 = cute.get_layout(%frg_C) : !memref_rmem_f32
      cute.memref.store_vec(%cst, %frg_C) : (vector<32xf32>, !memref_rmem_f32) -> ()
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>
      %18 = cute.make_tiled_copy(%atom) : !copy_ldsm_4
      %19 = cute.make_tiled_copy(%atom) : !copy_ldsm_4_1
      %src_partitioned = cute.tiled.copy.partition_S(%18, %view, %coord_16) : (!copy_ldsm_4, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled = cute.tiled.copy.retile(%18, %frg_A) : (!copy_ldsm_4, !memref_rmem_f16) -> !memref_rmem_f16_2
      %src_partitioned_18 = cute.tiled.copy.partition_S(%19, %view_5, %coord_16) : (!copy_ldsm_4_1, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled_19 = cute.tiled.copy.retile(%19, %frg_B) : (!copy_ldsm_4_1, !memref_rmem_f16_1) -> !memref_rmem_f16_3
      %coord_20 = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
      %slice = cute.slice(%src_partitioned, %coord_20) : !memref_smem_f16_7, !cute.coord<"(_,_,0)">
      %iter_21 = cute.get_iter(%slice) : !memref_smem_f16_8
      %slice_22 = cute.slice(%retiled, %coord_20) : !memref_rmem_f16_2, !cute.coord<"(_,_,0)">
      %iter_23 = cute.get_iter(%slice_22) : !memref_rmem_f16_4
      %lay_24 = cute.get_layout(%slice) : !memref_smem_f16_8
      %lay_25 = cute.get_layout(%slice_22) : !memref_rmem_f16_4
      %append = cute.append_to_rank<2> (%lay_24, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_26 = cute.make_view(%iter_21, %append) : !memref_smem_f16_8
      %grouped_27 = cute.group_modes(%view_26) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_28 = cute.append_to_rank<2> (%lay_25, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_29 = cute.make_view(%iter_23, %append_28) : !memref_rmem_f16_4
      %grouped_30 = cute.group_modes(%view_29) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%18, %grouped_27, %grouped_30) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_31 = cute.slice(%src_partitioned_18, %coord_20) : !memref_smem_f16_7, !cute.coord<"(_,_,0)">
      %iter_32 = cute.get_iter(%slice_31) : !memref_smem_f16_8
      %slice_33 = cute.slice(%retiled_19, %coord_20) : !memref_rmem_f16_3, !cute.coord<"(_,_,0)">
      %iter_34 = cute.get_iter(%slice_33) : !memref_rmem_f16_6
      %lay_35 = cute.get_layout(%slice_31) : !memref_smem_f16_8
      %lay_36 = cute.get_layout(%slice_33) : !memref_rmem_f16_6
      %append_37 = cute.append_to_rank<2> (%lay_35, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_38 = cute.make_view(%iter_32, %append_37) : !memref_smem_f16_8
      %grouped_39 = cute.group_modes(%view_38) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_40 = cute.append_to_rank<2> (%lay_36, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_41 = cute.make_view(%iter_34, %append_40) : !memref_rmem_f16_6
      %grouped_42 = cute.group_modes(%view_41) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%19, %grouped_39, %grouped_42) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_43 = cute.slice(%frg_A, %coord_20) : !memref_rmem_f16, !cute.coord<"(_,_,0)">
      %slice_44 = cute.slice(%frg_B, %coord_20) : !memref_rmem_f16_1, !cute.coord<"(_,_,0)">
      cute.gemm(%arg5, %frg_C, %slice_43, %slice_44, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_45 = cute.make_coord() : () -> !cute.coord<"(_,_,1)">
      %slice_46 = cute.slice(%src_partitioned, %coord_45) : !memref_smem_f16_7, !cute.coord<"(_,_,1)">
      %iter_47 = cute.get_iter(%slice_46) : !memref_smem_f16_8
      %slice_48 = cute.slice(%retiled, %coord_45) : !memref_rmem_f16_2, !cute.coord<"(_,_,1)">
      %iter_49 = cute.get_iter(%slice_48) : !memref_rmem_f16_4
      %lay_50 = cute.get_layout(%slice_46) : !memref_smem_f16_8
      %lay_51 = cute.get_layout(%slice_48) : !memref_rmem_f16_4
      %append_52 = cute.append_to_rank<2> (%lay_50, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_53 = cute.make_view(%iter_47, %append_52) : !memref_smem_f16_8
      %grouped_54 = cute.group_modes(%view_53) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_55 = cute.append_to_rank<2> (%lay_51, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_56 = cute.make_view(%iter_49, %append_55) : !memref_rmem_f16_4
      %grouped_57 = cute.group_modes(%view_56) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%18, %grouped_54, %grouped_57) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_58 = cute.slice(%src_partitioned_18, %coord_45) : !memref_smem_f16_7, !cute.coord<"(_,_,1)">
      %iter_59 = cute.get_iter(%slice_58) : !memref_smem_f16_8
      %slice_60 = cute.slice(%retiled_19, %coord_45) : !memref_rmem_f16_3, !cute.coord<"(_,_,1)">
      %iter_61 = cute.get_iter(%slice_60) : !memref_rmem_f16_6
      %lay_62 = cute.get_layout(%slice_58) : !memref_smem_f16_8
      %lay_63 = cute.get_layout(%slice_60) : !memref_rmem_f16_6
      %append_64 = cute.append_to_rank<2> (%lay_62, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_65 = cute.make_view(%iter_59, %append_64) : !memref_smem_f16_8
      %grouped_66 = cute.group_modes(%view_65) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_67 = cute.append_to_rank<2> (%lay_63, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_68 = cute.make_view(%iter_61, %append_67) : !memref_rmem_f16_6
      %grouped_69 = cute.group_modes(%view_68) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%19, %grouped_66, %grouped_69) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_70 = cute.slice(%frg_A, %coord_45) : !memref_rmem_f16, !cute.coord<"(_,_,1)">
      %slice_71 = cute.slice(%frg_B, %coord_45) : !memref_rmem_f16_1, !cute.coord<"(_,_,1)">
      cute.gemm(%arg5, %frg_C, %slice_70, %slice_71, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_72 = cute.make_coord() : () -> !cute.coord<"(_,_,2)">
      %slice_73 = cute.slice(%src_partitioned, %coord_72) : !memref_smem_f16_7, !cute.coord<"(_,_,2)">
      %iter_74 = cute.get_iter(%slice_73) : !memref_smem_f16_8
      %slice_75 = cute.slice(%retiled, %coord_72) : !memref_rmem_f16_2, !cute.coord<"(_,_,2)">
      %iter_76 = cute.get_iter(%slice_75) : !memref_rmem_f16_4
      %lay_77 = cute.get_layout(%slice_73) : !memref_smem_f16_8
      %lay_78 = cute.get_layout(%slice_75) : !memref_rmem_f16_4
      %append_79 = cute.append_to_rank<2> (%lay_77, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_80 = cute.make_view(%iter_74, %append_79) : !memref_smem_f16_8
      %grouped_81 = cute.group_modes(%view_80) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_82 = cute.append_to_rank<2> (%lay_78, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_83 = cute.make_view(%iter_76, %append_82) : !memref_rmem_f16_4
      %grouped_84 = cute.group_modes(%view_83) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%18, %grouped_81, %grouped_84) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_85 = cute.slice(%src_partitioned_18, %coord_72) : !memref_smem_f16_7, !cute.coord<"(_,_,2)">
      %iter_86 = cute.get_iter(%slice_85) : !memref_smem_f16_8
      %slice_87 = cute.slice(%retiled_19, %coord_72) : !memref_rmem_f16_3, !cute.coord<"(_,_,2)">
      %iter_88 = cute.get_iter(%slice_87) : !memref_rmem_f16_6
      %lay_89 = cute.get_layout(%slice_85) : !memref_smem_f16_8
      %lay_90 = cute.get_layout(%slice_87) : !memref_rmem_f16_6
      %append_91 = cute.append_to_rank<2> (%lay_89, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_92 = cute.make_view(%iter_86, %append_91) : !memref_smem_f16_8
      %grouped_93 = cute.group_modes(%view_92) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_94 = cute.append_to_rank<2> (%lay_90, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_95 = cute.make_view(%iter_88, %append_94) : !memref_rmem_f16_6
      %grouped_96 = cute.group_modes(%view_95) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%19, %grouped_93, %grouped_96) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_97 = cute.slice(%frg_A, %coord_72) : !memref_rmem_f16, !cute.coord<"(_,_,2)">
      %slice_98 = cute.slice(%frg_B, %coord_72) : !memref_rmem_f16_1, !cute.coord<"(_,_,2)">
      cute.gemm(%arg5, %frg_C, %slice_97, %slice_98, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_99 = cute.make_coord() : () -> !cute.coord<"(_,_,3)">
      %slice_100 = cute.slice(%src_partitioned, %coord_99) : !memref_smem_f16_7, !cute.coord<"(_,_,3)">
      %iter_101 = cute.get_iter(%slice_100) : !memref_smem_f16_8
      %slice_102 = cute.slice(%retiled, %coord_99) : !memref_rmem_f16_2, !cute.coord<"(_,_,3)">
      %iter_103 = cute.get_iter(%slice_102) : !memref_rmem_f16_4
      %lay_104 = cute.get_layout(%slice_100) : !memref_smem_f16_8
      %lay_105 = cute.get_layout(%slice_102) : !memref_rmem_f16_4
      %append_106 = cute.append_to_rank<2> (%lay_104, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_107 = cute.make_view(%iter_101, %append_106) : !memref_smem_f16_8
      %grouped_108 = cute.group_modes(%view_107) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_109 = cute.append_to_rank<2> (%lay_105, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_110 = cute.make_view(%iter_103, %append_109) : !memref_rmem_f16_4
      %grouped_111 = cute.group_modes(%view_110) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%18, %grouped_108, %grouped_111) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_112 = cute.slice(%src_partitioned_18, %coord_99) : !memref_smem_f16_7, !cute.coord<"(_,_,3)">
      %iter_113 = cute.get_iter(%slice_112) : !memref_smem_f16_8
      %slice_114 = cute.slice(%retiled_19, %coord_99) : !memref_rmem_f16_3, !cute.coord<"(_,_,3)">
      %iter_115 = cute.get_iter(%slice_114) : !memref_rmem_f16_6
      %lay_116 = cute.get_layout(%slice_112) : !memref_smem_f16_8
      %lay_117 = cute.get_layout(%slice_114) : !memref_rmem_f16_6
      %append_118 = cute.append_to_rank<2> (%lay_116, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_119 = cute.make_view(%iter_113, %append_118) : !memref_smem_f16_8
      %grouped_120 = cute.group_modes(%view_119) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_121 = cute.append_to_rank<2> (%lay_117, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_122 = cute.make_view(%iter_115, %append_121) : !memref_rmem_f16_6
      %grouped_123 = cute.group_modes(%view_122) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%19, %grouped_120, %grouped_123) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_124 = cute.slice(%frg_A, %coord_99) : !memref_rmem_f16, !cute.coord<"(_,_,3)">
      %slice_125 = cute.slice(%frg_B, %coord_99) : !memref_rmem_f16_1, !cute.coord<"(_,_,3)">
      cute.gemm(%arg5, %frg_C, %slice_124, %slice_125, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %lay_126 = cute.get_layout(%ptn_C) : !memref_gmem_f32_1
      %rinv = cute.right_inverse(%lay_126) : (!cute.layout<"((2,2),2,4):((1,512),2048,16)">) -> !cute.layout<"2:1">
      %20 = cute.composition(%lay_17, %rinv) : (!cute.layout<"((2,2),2,4):((1,2),4,8)">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %coalesce = cute.coalesce(%20) : (!cute.layout<"2:1">) -> !cute.layout<"2:1">
      %21 = cute.composition(%rinv, %coalesce) : (!cute.layout<"2:1">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %div = cute.logical_divide(%frg_C, %21) : !memref_rmem_f32, !cute.layout<"2:1">
      %div_127 = cute.logical_divide(%ptn_C, %21) : !memref_gmem_f32_1, !cute.layout<"2:1">
      %shape_128 = cute.make_shape() : () -> !cute.shape<"2">
      %lay_129 = cute.make_layout(%shape_128) : !cute.layout<"2:1">
      %div_130 = cute.logical_divide(%div, %lay_129) : !memref_rmem_f32_1, !cute.layout<"2:1">
      %div_131 = cute.logical_divide(%div_127, %lay_129) : !memref_gmem_f32_2, !cute.layout<"2:1">
      %atom_132 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32, 64 b>
      cute.copy(%atom_132, %div_130, %div_131) : (!cute_nvgpu.atom.universal_copy<f32, 64 b>, !memref_rmem_f32_1, !memref_gmem_f32_2)
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat166464641_FakeTensorFloat166464721_FakeTensorFloat326464641_FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16_1, %arg2: !memref_gmem_f32, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c232448_i64 = arith.constant 232448 : i64
    %0 = cute.static : !cute.swizzle<"S<3,4,3>">
    %shape = cute.make_shape() : () -> !cute.shape<"(8,64)">
    %stride = cute.make_stride() : () -> !cute.stride<"(64,1)">
    %lay = cute.make_layout(%shape, %stride) : !cute.layout<"(8,64):(64,1)">
    %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"0">
    %lay_0 = cute.make_composed_layout(%0, %int_tuple, %lay) : !cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">
    %shape_1 = cute.make_shape() : () -> !cute.shape<"(64,64)">
    %int_tuple_2 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1)">
    %tile_to_shape = cute.tile_to_shape(%lay_0, %shape_1, %int_tuple_2) : (!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">, !cute.shape<"(64,64)">, !cute.int_tuple<"(0,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">
    %1 = cute.make_identity_layout(%shape_1) : !cute.layout<"(64,64):(1@0,1@1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
    %2 = cute.composition(%1, %tile) : (!cute.layout<"(64,64):(1@0,1@1)">, !cute.tile<"[64:1;64:1]">) -> !cute.layout<"(64,64):(1@0,1@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %tile_to_shape, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %non_exec_atom_3, %tma_tensor_4 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %tile_to_shape, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %atom = cute.make_atom() : () -> !cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32) >
    %3 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_16x8x16
    %4 = cute.kernel_smem_size @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_t_0 : i64
    %5 = arith.cmpi sgt, %4, %c232448_i64 : i64
    scf.if %5 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_t_0' launch shared memory exceeds current GPU arch sm_90a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %4) : i64
    }
    %6 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %4, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %7 = cuda.launch_ex @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_t_0<%6> (%non_exec_atom, %tma_tensor, %non_exec_atom_3, %tma_tensor_4, %arg2, %3, %tile_to_shape, %tile_to_shape, %tile_to_shape) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_16x8x16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cuda.result
    %8 = cuda.cast %7 : !cuda.result -> i32
    cuda.return_if_error %8 : i32
    return %c0_i32 : i32
  }
}

