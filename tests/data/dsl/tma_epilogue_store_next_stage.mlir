// made by: python tests/dsl_tma_kernel.py tests/data/dsl/tma_epilogue_store_next_stage.mlir epilogue=views epi_mistake=store_next_stage (the CuTe DSL, CUTE_DSL_ARCH=sm_90a, CUTE_DSL_KEEP=ir)
!copy_stsm_4 = !cute.tiled_copy<!cute_nvgpu.atom.stsm<f16, mode = <"(8,8)">, num_matrices = 4, n>, layout_copy_tv = <"((4,32),((2,2,2),1)):((64,1),((256,32,512),0))">, tiler_mn = <"[(8,4,2):(1,16,8);(4,2,2):(2,1,8)]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(64,64):(72,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(64,64):(64,1)">
!memref_rmem_f16 = !cute.memref<f16, rmem, align<32>, "(((2,2,2),1),1,1):(((1,2,4),0),0,0)">
!memref_rmem_f16_1 = !cute.memref<f16, rmem, align<32>, "(((2,2,2),1),(1,1)):(((1,2,4),0),(0,0))">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<32>, "((2,2,8),1,1):((1,2,4),0,0)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, align<32>, "((8,4),1,1):((1,8),0,0)">
!memref_rmem_f32_2 = !cute.memref<f32, rmem, align<32>, "(((2,2,2),1),1,1):(((1,2,4),0),0,0)">
!memref_smem_f16 = !cute.memref<f16, smem, align<1024>, S<1,4,3>, "((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">
!memref_smem_f16_1 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8,8),(64,1)):((64,512),(1,0))">
!memref_smem_f16_2 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((8,8),(64,1))):(((64,512),(1,0)))">
!memref_smem_f16_3 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1)):((1,0))">
!memref_smem_f16_4 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),1):((1,0),0)">
!memref_smem_f16_5 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),(1)):((1,0),(0))">
!memref_smem_f16_6 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((64,16),1,4):((64,1),0,16)">
!memref_smem_f16_7 = !cute.memref<f16, smem, align<16>, S<1,4,3>, "(((2,4),1),1,1,(1,2)):(((1,2),0),0,0,(0,1024))">
!memref_smem_f16_8 = !cute.memref<f16, smem, align<1024>, S<1,4,3>, "(((8,8),(16,1)),(1,2)):(((16,128),(1,0)),(0,1024))">
!memref_smem_f16_9 = !cute.memref<f16, smem, align<1024>, S<1,4,3>, "((1024,1),(1,2)):((1,0),(0,1024))">
!memref_smem_f16_10 = !cute.memref<f16, smem, align<16>, S<1,4,3>, "(((2,4),1),1,1):(((1,2),0),0,0)">
!memref_smem_f16_11 = !cute.memref<f16, smem, align<16>, S<1,4,3>, "(((2,4),1),(1,1)):(((1,2),0),(0,0))">
!memref_smem_f16_12 = !cute.memref<f16, smem, align<1024>, S<1,4,3>, "((1024,1)):((1,0))">
!memref_smem_f16_13 = !cute.memref<f16, smem, align<1024>, S<1,4,3>, "((1024,1),1):((1,0),0)">
!memref_smem_f16_14 = !cute.memref<f16, smem, align<1024>, S<1,4,3>, "((1024,1),(1)):((1,0),(0))">
!memref_smem_i8 = !cute.memref<i8, smem, align<1024>, "21504:1">
!mma_f16_f16_f32_64x64x16 = !cute.tiled_mma<!cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>, atom_layout_MNK = <"(1,1,1):(0,0,0)">, permutation_MNK = <"[_;_;_]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tma_wgmma_epilogue_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Value_0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_64x64x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg8: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg9: !cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg10: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg11: !cute.composed_layout<"S<1,4,3> o 0 o ((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %c128_i32 = arith.constant 128 : i32
      %true = arith.constant true
      %false = arith.constant false
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
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32, smem.struct_fields = ["full:8:0", "a:8192:1024", "b:8192:9216", "d:4096:17408"]} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"1024">
      %ptr = cute.add_offset(%iter, %int_tuple) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"1024">) -> !cute.ptr<i8, smem, align<1024>>
      %int_tuple_0 = cute.make_int_tuple() : () -> !cute.int_tuple<"9216">
      %ptr_1 = cute.add_offset(%iter, %int_tuple_0) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"9216">) -> !cute.ptr<i8, smem, align<1024>>
      %int_tuple_2 = cute.make_int_tuple() : () -> !cute.int_tuple<"17408">
      %ptr_3 = cute.add_offset(%iter, %int_tuple_2) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"17408">) -> !cute.ptr<i8, smem, align<1024>>
      %13 = cute.composed_get_outer(%arg11) : (!cute.composed_layout<"S<1,4,3> o 0 o ((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">) -> !cute.layout<"((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">
      %iter_4 = cute.recast_iter(%ptr_3) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<1,4,3>>
      %view = cute.make_view(%iter_4, %13) : !memref_smem_f16
      %iter_5 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<i64, smem, align<1024>>
      %14 = cute.composed_get_outer(%arg6) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %iter_6 = cute.recast_iter(%ptr) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view_7 = cute.make_view(%iter_6, %14) : !memref_smem_f16_1
      %15 = cute.composed_get_outer(%arg7) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %iter_8 = cute.recast_iter(%ptr_1) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view_9 = cute.make_view(%iter_8, %15) : !memref_smem_f16_1
      %16 = cute.composed_get_outer(%arg8) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %view_10 = cute.make_view(%iter_8, %16) : !memref_smem_f16_1
      %17 = arith.cmpi eq, %12, %c0_i32 : i32
      scf.if %17 {
        %32 = nvvm.elect.sync -> i1
        scf.if %32 {
          %33 = builtin.unrealized_conversion_cast %iter_5 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          nvvm.mbarrier.init %33, %c1_i32 : !llvm.ptr<3>, i32
        }
      }
      nvvm.fence.mbarrier.init
      nvvm.barrier
      %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
      %coord = cute.make_coord() : () -> !cute.coord<"(0,0)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %tiled_view_11 = cute.local_tile(%arg3, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view_7) <0, 2> : (!memref_smem_f16_1) -> !memref_smem_f16_2
      %grouped_12 = cute.group_modes(%tiled_view) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">
      %coord_13 = cute.make_coord() : () -> !cute.coord<"0">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg0, %coord_13, %lay, %grouped, %grouped_12) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_3, !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_14 = cute.get_iter(%res_smem_tensor) : !memref_smem_f16_3
      %grouped_15 = cute.group_modes(%view_10) <0, 2> : (!memref_smem_f16_1) -> !memref_smem_f16_2
      %grouped_16 = cute.group_modes(%tiled_view_11) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">
      %res_smem_tensor_17, %res_target_tensors_18 = cute_nvgpu.atom.tma_partition(%arg2, %coord_13, %lay, %grouped_15, %grouped_16) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_3, !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_19 = cute.get_iter(%res_smem_tensor_17) : !memref_smem_f16_3
      scf.if %17 {
        %32 = nvvm.elect.sync -> i1
        scf.if %32 {
          %37 = builtin.unrealized_conversion_cast %iter_5 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          %38 = nvvm.mbarrier.arrive.expect_tx %37, %c16384_i32 : !llvm.ptr<3>, i32 -> i64
        }
        %lay_88 = cute.get_layout(%res_target_tensors) : !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_89 = cute.get_layout(%res_smem_tensor) : !memref_smem_f16_3
        %append_90 = cute.append_to_rank<2> (%lay_88, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_91 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_91) : (!cute.int_tuple<"(0,0)">) -> !cute.arith_tuple_iter<"(0,0)">
        %view_92 = cute.make_view(%int_tup_iter, %append_90) : !cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_93 = cute.group_modes(%view_92) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_94 = cute.append_to_rank<2> (%lay_89, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_95 = cute.make_view(%iter_14, %append_94) : !memref_smem_f16_4
        %grouped_96 = cute.group_modes(%view_95) <1, 2> : (!memref_smem_f16_4) -> !memref_smem_f16_5
        %33 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %34 = cute_nvgpu.atom.set_value<tma_bar>(%33, %iter_5) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%34, %grouped_93, %grouped_96) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_5)
        %lay_97 = cute.get_layout(%res_target_tensors_18) : !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_98 = cute.get_layout(%res_smem_tensor_17) : !memref_smem_f16_3
        %append_99 = cute.append_to_rank<2> (%lay_97, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %view_100 = cute.make_view(%int_tup_iter, %append_99) : !cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_101 = cute.group_modes(%view_100) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_102 = cute.append_to_rank<2> (%lay_98, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_103 = cute.make_view(%iter_19, %append_102) : !memref_smem_f16_4
        %grouped_104 = cute.group_modes(%view_103) <1, 2> : (!memref_smem_f16_4) -> !memref_smem_f16_5
        %35 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %36 = cute_nvgpu.atom.set_value<tma_bar>(%35, %iter_5) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%36, %grouped_101, %grouped_104) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_5)
      }
      %18 = builtin.unrealized_conversion_cast %iter_5 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %18, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
      %coord_20 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %view_7, %coord_20) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16_1, !cute.coord<"?">) -> !memref_smem_f16_6
      %frg_A = cute.mma.make_fragment A (%arg5, %ptn_A) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16_6) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">
      %ptn_B = cute.tiled.mma.partition B (%arg5, %view_9, %coord_20) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16_1, !cute.coord<"?">) -> !memref_smem_f16_6
      %frg_B = cute.mma.make_fragment B (%arg5, %ptn_B) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16_6) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">
      %rmem = cute.memref.alloca() : !memref_rmem_f32
      %19 = cute_nvgpu.atom.set_value<accum_c>(%arg5, %false) : (!mma_f16_f16_f32_64x64x16, i1)
      nvvm.wgmma.fence.aligned
      %coord_21 = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
      %slice = cute.slice(%frg_A, %coord_21) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,0)">
      %slice_22 = cute.slice(%frg_B, %coord_21) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,0)">
      cute.gemm(%19, %rmem, %slice, %slice_22, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      %20 = cute_nvgpu.atom.set_value<accum_c>(%19, %true) : (!mma_f16_f16_f32_64x64x16, i1)
      %coord_23 = cute.make_coord() : () -> !cute.coord<"(_,_,1)">
      %slice_24 = cute.slice(%frg_A, %coord_23) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,1)">
      %slice_25 = cute.slice(%frg_B, %coord_23) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,1)">
      cute.gemm(%20, %rmem, %slice_24, %slice_25, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      %21 = cute_nvgpu.atom.set_value<accum_c>(%20, %true) : (!mma_f16_f16_f32_64x64x16, i1)
      %coord_26 = cute.make_coord() : () -> !cute.coord<"(_,_,2)">
      %slice_27 = cute.slice(%frg_A, %coord_26) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,2)">
      %slice_28 = cute.slice(%frg_B, %coord_26) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,2)">
      cute.gemm(%21, %rmem, %slice_27, %slice_28, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      %22 = cute_nvgpu.atom.set_value<accum_c>(%21, %true) : (!mma_f16_f16_f32_64x64x16, i1)
      %coord_29 = cute.make_coord() : () -> !cute.coord<"(_,_,3)">
      %slice_30 = cute.slice(%frg_A, %coord_29) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,3)">
      %slice_31 = cute.slice(%frg_B, %coord_29) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,3)">
      cute.gemm(%22, %rmem, %slice_30, %slice_31, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.stsm<f16, mode = <"(8,8)">, num_matrices = 4, n>
      %23 = cute.make_tiled_copy(%atom) : !copy_stsm_4
      %dst_partitioned = cute.tiled.copy.partition_D(%23, %view, %coord_20) : (!copy_stsm_4, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled = cute.tiled.copy.retile(%23, %rmem) : (!copy_stsm_4, !memref_rmem_f32) -> !memref_rmem_f32_1
      %iter_32 = cute.get_iter(%retiled) : !memref_rmem_f32_1
      %shape_33 = cute.make_shape() : () -> !cute.shape<"(((2,2,2),1),1,1)">
      %lay_34 = cute.make_layout(%shape_33) : !cute.layout<"(((2,2,2),1),1,1):(((1,2,4),0),0,0)">
      %rmem_35 = cute.memref.alloca() : !memref_rmem_f32_2
      %tiled_view_36 = cute.local_tile(%arg10, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %tile_37 = cute.make_tile() : () -> !cute.tile<"[64:1;16:1]">
      %div = cute.zipped_divide(%tiled_view_36, %tile_37) : !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;16:1]">
      %grouped_38 = cute.group_modes(%view) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_8
      %res_smem_tensor_39, %res_target_tensors_40 = cute_nvgpu.atom.tma_partition(%arg9, %coord_13, %lay, %grouped_38, %div) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_8, !cute.coord_tensor<"(0,0)", "((64,16),(1,4)):((1@1,1@0),(0,16@0))">) -> (!memref_smem_f16_9, !cute.coord_tensor<"(0,0)", "(((16,64),1),(1,4)):(((1@0,1@1),0),(0,16@0))">)
      %view_41 = cute.make_view(%iter_32, %lay_34) : !memref_rmem_f32_2
      %24 = cute.memref.load_vec(%view_41) : (!memref_rmem_f32_2) -> vector<8xf32>
      %rmem_42 = cute.memref.alloca() : !memref_rmem_f16
      %iter_43 = cute.get_iter(%rmem_42) : !memref_rmem_f16
      %25 = arith.truncf %24 : vector<8xf32> to vector<8xf16>
      %lay_44 = cute.get_layout(%rmem_42) : !memref_rmem_f16
      cute.memref.store_vec(%25, %rmem_42) : (vector<8xf16>, !memref_rmem_f16) -> ()
      %coord_45 = cute.make_coord() : () -> !cute.coord<"(_,_,_,0)">
      %slice_46 = cute.slice(%dst_partitioned, %coord_45) : !memref_smem_f16_7, !cute.coord<"(_,_,_,0)">
      %iter_47 = cute.get_iter(%slice_46) : !memref_smem_f16_10
      %lay_48 = cute.get_layout(%slice_46) : !memref_smem_f16_10
      %append = cute.append_to_rank<2> (%lay_44, %lay) : !cute.layout<"(((2,2,2),1),1,1):(((1,2,4),0),0,0)">, !cute.layout<"1:0">
      %view_49 = cute.make_view(%iter_43, %append) : !memref_rmem_f16
      %grouped_50 = cute.group_modes(%view_49) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      %append_51 = cute.append_to_rank<2> (%lay_48, %lay) : !cute.layout<"(((2,4),1),1,1):(((1,2),0),0,0)">, !cute.layout<"1:0">
      %view_52 = cute.make_view(%iter_47, %append_51) : !memref_smem_f16_10
      %grouped_53 = cute.group_modes(%view_52) <1, 3> : (!memref_smem_f16_10) -> !memref_smem_f16_11
      cute.copy(%23, %grouped_50, %grouped_53) : (!copy_stsm_4, !memref_rmem_f16_1, !memref_smem_f16_11)
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      scf.if %17 {
        %coord_88 = cute.make_coord() : () -> !cute.coord<"(_,1)">
        %slice_89 = cute.slice(%res_smem_tensor_39, %coord_88) : !memref_smem_f16_9, !cute.coord<"(_,1)">
        %iter_90 = cute.get_iter(%slice_89) : !memref_smem_f16_12
        %coord_91 = cute.make_coord() : () -> !cute.coord<"(_,(0,0))">
        %slice_92 = cute.slice(%res_target_tensors_40, %coord_91) : !cute.coord_tensor<"(0,0)", "(((16,64),1),(1,4)):(((1@0,1@1),0),(0,16@0))">, !cute.coord<"(_,(0,0))">
        %lay_93 = cute.get_layout(%slice_89) : !memref_smem_f16_12
        %lay_94 = cute.get_layout(%slice_92) : !cute.coord_tensor<"(0,0)", "(((16,64),1)):(((1@0,1@1),0))">
        %append_95 = cute.append_to_rank<2> (%lay_93, %lay) : !cute.layout<"((1024,1)):((1,0))">, !cute.layout<"1:0">
        %view_96 = cute.make_view(%iter_90, %append_95) : !memref_smem_f16_13
        %grouped_97 = cute.group_modes(%view_96) <1, 2> : (!memref_smem_f16_13) -> !memref_smem_f16_14
        %append_98 = cute.append_to_rank<2> (%lay_94, %lay) : !cute.layout<"(((16,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_99 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_99) : (!cute.int_tuple<"(0,0)">) -> !cute.arith_tuple_iter<"(0,0)">
        %view_100 = cute.make_view(%int_tup_iter, %append_98) : !cute.coord_tensor<"(0,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">
        %grouped_101 = cute.group_modes(%view_100) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">
        %32 = cute_nvgpu.atom.make_exec_tma(%arg9) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>
        cute.copy(%32, %grouped_97, %grouped_101) : (!cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>, !memref_smem_f16_14, !cute.coord_tensor<"(0,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">)
        nvvm.cp.async.bulk.commit.group
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      %int_tuple_54 = cute.make_int_tuple() : () -> !cute.int_tuple<"8">
      %ptr_55 = cute.add_offset(%iter_32, %int_tuple_54) : (!cute.ptr<f32, rmem, align<32>>, !cute.int_tuple<"8">) -> !cute.ptr<f32, rmem, align<32>>
      %view_56 = cute.make_view(%ptr_55, %lay_34) : !memref_rmem_f32_2
      %26 = cute.memref.load_vec(%view_56) : (!memref_rmem_f32_2) -> vector<8xf32>
      %rmem_57 = cute.memref.alloca() : !memref_rmem_f16
      %iter_58 = cute.get_iter(%rmem_57) : !memref_rmem_f16
      %27 = arith.truncf %26 : vector<8xf32> to vector<8xf16>
      %lay_59 = cute.get_layout(%rmem_57) : !memref_rmem_f16
      cute.memref.store_vec(%27, %rmem_57) : (vector<8xf16>, !memref_rmem_f16) -> ()
      %coord_60 = cute.make_coord() : () -> !cute.coord<"(_,_,_,1)">
      %slice_61 = cute.slice(%dst_partitioned, %coord_60) : !memref_smem_f16_7, !cute.coord<"(_,_,_,1)">
      %iter_62 = cute.get_iter(%slice_61) : !memref_smem_f16_10
      %lay_63 = cute.get_layout(%slice_61) : !memref_smem_f16_10
      %append_64 = cute.append_to_rank<2> (%lay_59, %lay) : !cute.layout<"(((2,2,2),1),1,1):(((1,2,4),0),0,0)">, !cute.layout<"1:0">
      %view_65 = cute.make_view(%iter_58, %append_64) : !memref_rmem_f16
      %grouped_66 = cute.group_modes(%view_65) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      %append_67 = cute.append_to_rank<2> (%lay_63, %lay) : !cute.layout<"(((2,4),1),1,1):(((1,2),0),0,0)">, !cute.layout<"1:0">
      %view_68 = cute.make_view(%iter_62, %append_67) : !memref_smem_f16_10
      %grouped_69 = cute.group_modes(%view_68) <1, 3> : (!memref_smem_f16_10) -> !memref_smem_f16_11
      cute.copy(%23, %grouped_66, %grouped_69) : (!copy_stsm_4, !memref_rmem_f16_1, !memref_smem_f16_11)
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      scf.if %17 {
        %coord_88 = cute.make_coord() : () -> !cute.coord<"(_,0)">
        %slice_89 = cute.slice(%res_smem_tensor_39, %coord_88) : !memref_smem_f16_9, !cute.coord<"(_,0)">
        %iter_90 = cute.get_iter(%slice_89) : !memref_smem_f16_12
        %coord_91 = cute.make_coord() : () -> !cute.coord<"(_,(0,1))">
        %slice_92 = cute.slice(%res_target_tensors_40, %coord_91) : !cute.coord_tensor<"(0,0)", "(((16,64),1),(1,4)):(((1@0,1@1),0),(0,16@0))">, !cute.coord<"(_,(0,1))">
        %lay_93 = cute.get_layout(%slice_89) : !memref_smem_f16_12
        %lay_94 = cute.get_layout(%slice_92) : !cute.coord_tensor<"(16,0)", "(((16,64),1)):(((1@0,1@1),0))">
        %append_95 = cute.append_to_rank<2> (%lay_93, %lay) : !cute.layout<"((1024,1)):((1,0))">, !cute.layout<"1:0">
        %view_96 = cute.make_view(%iter_90, %append_95) : !memref_smem_f16_13
        %grouped_97 = cute.group_modes(%view_96) <1, 2> : (!memref_smem_f16_13) -> !memref_smem_f16_14
        %append_98 = cute.append_to_rank<2> (%lay_94, %lay) : !cute.layout<"(((16,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_99 = cute.make_int_tuple() : () -> !cute.int_tuple<"(16,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_99) : (!cute.int_tuple<"(16,0)">) -> !cute.arith_tuple_iter<"(16,0)">
        %view_100 = cute.make_view(%int_tup_iter, %append_98) : !cute.coord_tensor<"(16,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">
        %grouped_101 = cute.group_modes(%view_100) <1, 2> : (!cute.coord_tensor<"(16,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(16,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">
        %32 = cute_nvgpu.atom.make_exec_tma(%arg9) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>
        cute.copy(%32, %grouped_97, %grouped_101) : (!cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>, !memref_smem_f16_14, !cute.coord_tensor<"(16,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">)
        nvvm.cp.async.bulk.commit.group
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      %int_tuple_70 = cute.make_int_tuple() : () -> !cute.int_tuple<"16">
      %ptr_71 = cute.add_offset(%iter_32, %int_tuple_70) : (!cute.ptr<f32, rmem, align<32>>, !cute.int_tuple<"16">) -> !cute.ptr<f32, rmem, align<32>>
      %view_72 = cute.make_view(%ptr_71, %lay_34) : !memref_rmem_f32_2
      %28 = cute.memref.load_vec(%view_72) : (!memref_rmem_f32_2) -> vector<8xf32>
      %rmem_73 = cute.memref.alloca() : !memref_rmem_f16
      %iter_74 = cute.get_iter(%rmem_73) : !memref_rmem_f16
      %29 = arith.truncf %28 : vector<8xf32> to vector<8xf16>
      %lay_75 = cute.get_layout(%rmem_73) : !memref_rmem_f16
      cute.memref.store_vec(%29, %rmem_73) : (vector<8xf16>, !memref_rmem_f16) -> ()
      %append_76 = cute.append_to_rank<2> (%lay_75, %lay) : !cute.layout<"(((2,2,2),1),1,1):(((1,2,4),0),0,0)">, !cute.layout<"1:0">
      %view_77 = cute.make_view(%iter_74, %append_76) : !memref_rmem_f16
      %grouped_78 = cute.group_modes(%view_77) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      cute.copy(%23, %grouped_78, %grouped_53) : (!copy_stsm_4, !memref_rmem_f16_1, !memref_smem_f16_11)
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      scf.if %17 {
        %coord_88 = cute.make_coord() : () -> !cute.coord<"(_,1)">
        %slice_89 = cute.slice(%res_smem_tensor_39, %coord_88) : !memref_smem_f16_9, !cute.coord<"(_,1)">
        %iter_90 = cute.get_iter(%slice_89) : !memref_smem_f16_12
        %coord_91 = cute.make_coord() : () -> !cute.coord<"(_,(0,2))">
        %slice_92 = cute.slice(%res_target_tensors_40, %coord_91) : !cute.coord_tensor<"(0,0)", "(((16,64),1),(1,4)):(((1@0,1@1),0),(0,16@0))">, !cute.coord<"(_,(0,2))">
        %lay_93 = cute.get_layout(%slice_89) : !memref_smem_f16_12
        %lay_94 = cute.get_layout(%slice_92) : !cute.coord_tensor<"(32,0)", "(((16,64),1)):(((1@0,1@1),0))">
        %append_95 = cute.append_to_rank<2> (%lay_93, %lay) : !cute.layout<"((1024,1)):((1,0))">, !cute.layout<"1:0">
        %view_96 = cute.make_view(%iter_90, %append_95) : !memref_smem_f16_13
        %grouped_97 = cute.group_modes(%view_96) <1, 2> : (!memref_smem_f16_13) -> !memref_smem_f16_14
        %append_98 = cute.append_to_rank<2> (%lay_94, %lay) : !cute.layout<"(((16,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_99 = cute.make_int_tuple() : () -> !cute.int_tuple<"(32,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_99) : (!cute.int_tuple<"(32,0)">) -> !cute.arith_tuple_iter<"(32,0)">
        %view_100 = cute.make_view(%int_tup_iter, %append_98) : !cute.coord_tensor<"(32,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">
        %grouped_101 = cute.group_modes(%view_100) <1, 2> : (!cute.coord_tensor<"(32,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(32,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">
        %32 = cute_nvgpu.atom.make_exec_tma(%arg9) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>
        cute.copy(%32, %grouped_97, %grouped_101) : (!cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>, !memref_smem_f16_14, !cute.coord_tensor<"(32,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">)
        nvvm.cp.async.bulk.commit.group
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      %int_tuple_79 = cute.make_int_tuple() : () -> !cute.int_tuple<"24">
      %ptr_80 = cute.add_offset(%iter_32, %int_tuple_79) : (!cute.ptr<f32, rmem, align<32>>, !cute.int_tuple<"24">) -> !cute.ptr<f32, rmem, align<32>>
      %view_81 = cute.make_view(%ptr_80, %lay_34) : !memref_rmem_f32_2
      %30 = cute.memref.load_vec(%view_81) : (!memref_rmem_f32_2) -> vector<8xf32>
      %rmem_82 = cute.memref.alloca() : !memref_rmem_f16
      %iter_83 = cute.get_iter(%rmem_82) : !memref_rmem_f16
      %31 = arith.truncf %30 : vector<8xf32> to vector<8xf16>
      %lay_84 = cute.get_layout(%rmem_82) : !memref_rmem_f16
      cute.memref.store_vec(%31, %rmem_82) : (vector<8xf16>, !memref_rmem_f16) -> ()
      %append_85 = cute.append_to_rank<2> (%lay_84, %lay) : !cute.layout<"(((2,2,2),1),1,1):(((1,2,4),0),0,0)">, !cute.layout<"1:0">
      %view_86 = cute.make_view(%iter_83, %append_85) : !memref_rmem_f16
      %grouped_87 = cute.group_modes(%view_86) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      cute.copy(%23, %grouped_87, %grouped_69) : (!copy_stsm_4, !memref_rmem_f16_1, !memref_smem_f16_11)
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      scf.if %17 {
        %coord_88 = cute.make_coord() : () -> !cute.coord<"(_,0)">
        %slice_89 = cute.slice(%res_smem_tensor_39, %coord_88) : !memref_smem_f16_9, !cute.coord<"(_,0)">
        %iter_90 = cute.get_iter(%slice_89) : !memref_smem_f16_12
        %coord_91 = cute.make_coord() : () -> !cute.coord<"(_,(0,3))">
        %slice_92 = cute.slice(%res_target_tensors_40, %coord_91) : !cute.coord_tensor<"(0,0)", "(((16,64),1),(1,4)):(((1@0,1@1),0),(0,16@0))">, !cute.coord<"(_,(0,3))">
        %lay_93 = cute.get_layout(%slice_89) : !memref_smem_f16_12
        %lay_94 = cute.get_layout(%slice_92) : !cute.coord_tensor<"(48,0)", "(((16,64),1)):(((1@0,1@1),0))">
        %append_95 = cute.append_to_rank<2> (%lay_93, %lay) : !cute.layout<"((1024,1)):((1,0))">, !cute.layout<"1:0">
        %view_96 = cute.make_view(%iter_90, %append_95) : !memref_smem_f16_13
        %grouped_97 = cute.group_modes(%view_96) <1, 2> : (!memref_smem_f16_13) -> !memref_smem_f16_14
        %append_98 = cute.append_to_rank<2> (%lay_94, %lay) : !cute.layout<"(((16,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_99 = cute.make_int_tuple() : () -> !cute.int_tuple<"(48,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_99) : (!cute.int_tuple<"(48,0)">) -> !cute.arith_tuple_iter<"(48,0)">
        %view_100 = cute.make_view(%int_tup_iter, %append_98) : !cute.coord_tensor<"(48,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">
        %grouped_101 = cute.group_modes(%view_100) <1, 2> : (!cute.coord_tensor<"(48,0)", "(((16,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(48,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">
        %32 = cute_nvgpu.atom.make_exec_tma(%arg9) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>
        cute.copy(%32, %grouped_97, %grouped_101) : (!cute_nvgpu.atom.tma_store<f16, copy_bits = 16384, mode = tiled, g_stride = <"()"> tma_gbasis = <"(16,64):(1@1,1@0)">>, !memref_smem_f16_14, !cute.coord_tensor<"(48,0)", "(((16,64),1),(1)):(((1@0,1@1),0),(0))">)
        nvvm.cp.async.bulk.commit.group
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
      return
    }
  }
  func.func @cutlass_launch_epilogue_FakeTensorFloat166464641_FakeTensorFloat166464721_FakeTensorFloat326464641_FakeTensorFloat166464641_FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16_1, %arg2: !memref_gmem_f32, %arg3: !memref_gmem_f16, %arg4: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c232448_i64 = arith.constant 232448 : i64
    %0 = cute.static : !cute.swizzle<"S<1,4,3>">
    %false = arith.constant false
    %1 = cute.static : !cute.swizzle<"S<3,4,3>">
    %shape = cute.make_shape() : () -> !cute.shape<"(8,64)">
    %stride = cute.make_stride() : () -> !cute.stride<"(64,1)">
    %lay = cute.make_layout(%shape, %stride) : !cute.layout<"(8,64):(64,1)">
    %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"0">
    %lay_0 = cute.make_composed_layout(%1, %int_tuple, %lay) : !cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">
    %shape_1 = cute.make_shape() : () -> !cute.shape<"(64,64)">
    %int_tuple_2 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1)">
    %tile_to_shape = cute.tile_to_shape(%lay_0, %shape_1, %int_tuple_2) : (!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">, !cute.shape<"(64,64)">, !cute.int_tuple<"(0,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">
    %2 = cute.make_identity_layout(%shape_1) : !cute.layout<"(64,64):(1@0,1@1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
    %3 = cute.composition(%2, %tile) : (!cute.layout<"(64,64):(1@0,1@1)">, !cute.tile<"[64:1;64:1]">) -> !cute.layout<"(64,64):(1@0,1@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %tile_to_shape, %3) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %non_exec_atom_3, %tma_tensor_4 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %tile_to_shape, %3) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %atom = cute.make_atom(%false) : (i1) -> !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
    %4 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_64x64x16
    %shape_5 = cute.make_shape() : () -> !cute.shape<"(8,16)">
    %stride_6 = cute.make_stride() : () -> !cute.stride<"(16,1)">
    %lay_7 = cute.make_layout(%shape_5, %stride_6) : !cute.layout<"(8,16):(16,1)">
    %lay_8 = cute.make_composed_layout(%0, %int_tuple, %lay_7) : !cute.composed_layout<"S<1,4,3> o 0 o (8,16):(16,1)">
    %shape_9 = cute.make_shape() : () -> !cute.shape<"(64,16,2)">
    %int_tuple_10 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1,2)">
    %tile_to_shape_11 = cute.tile_to_shape(%lay_8, %shape_9, %int_tuple_10) : (!cute.composed_layout<"S<1,4,3> o 0 o (8,16):(16,1)">, !cute.shape<"(64,16,2)">, !cute.int_tuple<"(0,1,2)">) -> !cute.composed_layout<"S<1,4,3> o 0 o ((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">
    %coord = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
    %slice = cute.slice(%tile_to_shape_11, %coord) : !cute.composed_layout<"S<1,4,3> o 0 o ((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">, !cute.coord<"(_,_,0)">
    %tile_12 = cute.make_tile() : () -> !cute.tile<"[64:1;16:1]">
    %5 = cute.composition(%2, %tile_12) : (!cute.layout<"(64,64):(1@0,1@1)">, !cute.tile<"[64:1;16:1]">) -> !cute.layout<"(64,16):(1@0,1@1)">
    %non_exec_atom_13, %tma_tensor_14 = cute_nvgpu.atom.make_non_exec_tiled_tma_store(%arg3, %slice, %5) : (!memref_gmem_f16, !cute.composed_layout<"S<1,4,3> o 0 o ((8,8),(16,1)):((16,128),(1,0))">, !cute.layout<"(64,16):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %6 = cute.kernel_smem_size @kernels::@kernel_cutlass_tma_wgmma_epilogue_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Value_0 : i64
    %7 = arith.cmpi sgt, %6, %c232448_i64 : i64
    scf.if %7 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tma_wgmma_epilogue_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Value_0' launch shared memory exceeds current GPU arch sm_90a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %6) : i64
    }
    %8 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %6, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg4) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%8] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%8] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %9 = cuda.launch_ex @kernels::@kernel_cutlass_tma_wgmma_epilogue_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Value_0<%8> (%non_exec_atom, %tma_tensor, %non_exec_atom_3, %tma_tensor_4, %arg2, %4, %tile_to_shape, %tile_to_shape, %tile_to_shape, %non_exec_atom_13, %tma_tensor_14, %tile_to_shape_11) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_64x64x16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute_nvgpu.atom.non_exec_tiled_tma_store<f16, copy_bits = 16384, tma_gbasis = <"(16,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.composed_layout<"S<1,4,3> o 0 o ((8,8),(16,1),(1,2)):((16,128),(1,0),(0,1024))">) -> !cuda.result
    %10 = cuda.cast %9 : !cuda.result -> i32
    cuda.return_if_error %10 : i32
    return %c0_i32 : i32
  }
}

