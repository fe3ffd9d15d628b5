// made by: python tests/dsl_tma_kernel.py tests/data/dsl/tma_ldsm_a_at_n.mlir mma=sync tiles=a_at_n (the CuTe DSL, CUTE_DSL_ARCH=sm_90a, CUTE_DSL_KEEP=ir)
!copy_ldsm_4 = !cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>, layout_copy_tv = <"((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))">, tiler_mn = <"[32:1;16:1]">>
!copy_ldsm_4_1 = !cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>, layout_copy_tv = <"((4,8,2,2),((2,2),(2,1))):((64,1,0,8),((32,256),(16,0)))">, tiler_mn = <"[32:1;16:1]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(128,64):(64,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(128,64):(72,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(128,128):(128,1)">
!memref_gmem_f32_1 = !cute.memref<f32, gmem, align<16>, "(64,64):(128,1)">
!memref_gmem_f32_2 = !cute.memref<f32, gmem, align<8>, "((2,2),2,4):((1,1024),4096,16)">
!memref_gmem_f32_3 = !cute.memref<f32, gmem, align<8>, "(2,(2,2,4)):(1,(1024,4096,16))">
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
    cuda.kernel @kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_16x8x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg8: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 2, 2, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
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
        %24 = nvvm.elect.sync -> i1
        scf.if %24 {
          %25 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          nvvm.mbarrier.init %25, %c1_i32 : !llvm.ptr<3>, i32
        }
      }
      nvvm.fence.mbarrier.init
      nvvm.barrier
      %17 = nvvm.read.ptx.sreg.ctaid.x : i32
      %18 = nvvm.read.ptx.sreg.ctaid.y : i32
      %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
      %coord = cute.make_coord(%18) : (i32) -> !cute.coord<"(?,0)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(?,0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">
      %tiled_view_7 = cute.local_tile(%arg3, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(?,0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">
      %coord_8 = cute.make_coord(%17, %18) : (i32, i32) -> !cute.coord<"(?,?)">
      %tiled_view_9 = cute.local_tile(%arg4, %tile, %coord_8) : (!memref_gmem_f32, !cute.tile<"[64:1;64:1]">, !cute.coord<"(?,?)">) -> !memref_gmem_f32_1
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_10 = cute.group_modes(%tiled_view) <0, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">
      %coord_11 = cute.make_coord() : () -> !cute.coord<"0">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg0, %coord_11, %lay, %grouped, %grouped_10) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_12 = cute.get_iter(%res_smem_tensor) : !memref_smem_f16_2
      %iter_13 = cute.get_iter(%res_target_tensors) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
      %tup = cute.deref_arith_tuple_iter(%iter_13) : !cute.arith_tuple_iter<"(0,?{div=64})">
      %e0, %e1 = cute.get_leaves(%tup) : !cute.int_tuple<"(0,?{div=64})">
      %grouped_14 = cute.group_modes(%view_6) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_15 = cute.group_modes(%tiled_view_7) <0, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">
      %res_smem_tensor_16, %res_target_tensors_17 = cute_nvgpu.atom.tma_partition(%arg2, %coord_11, %lay, %grouped_14, %grouped_15) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_18 = cute.get_iter(%res_smem_tensor_16) : !memref_smem_f16_2
      %iter_19 = cute.get_iter(%res_target_tensors_17) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
      %tup_20 = cute.deref_arith_tuple_iter(%iter_19) : !cute.arith_tuple_iter<"(0,?{div=64})">
      %e0_21, %e1_22 = cute.get_leaves(%tup_20) : !cute.int_tuple<"(0,?{div=64})">
      scf.if %16 {
        %24 = nvvm.elect.sync -> i1
        scf.if %24 {
          %29 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          %30 = nvvm.mbarrier.arrive.expect_tx %29, %c16384_i32 : !llvm.ptr<3>, i32 -> i64
        }
        %lay_140 = cute.get_layout(%res_target_tensors) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_141 = cute.get_layout(%res_smem_tensor) : !memref_smem_f16_2
        %append_142 = cute.append_to_rank<2> (%lay_140, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_143 = cute.make_int_tuple(%e1) : (!cute.int_tuple<"?{div=64}">) -> !cute.int_tuple<"(0,?{div=64})">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_143) : (!cute.int_tuple<"(0,?{div=64})">) -> !cute.arith_tuple_iter<"(0,?{div=64})">
        %view_144 = cute.make_view(%int_tup_iter, %append_142) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_145 = cute.group_modes(%view_144) <1, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_146 = cute.append_to_rank<2> (%lay_141, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_147 = cute.make_view(%iter_12, %append_146) : !memref_smem_f16_3
        %grouped_148 = cute.group_modes(%view_147) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_4
        %25 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %26 = cute_nvgpu.atom.set_value<tma_bar>(%25, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%26, %grouped_145, %grouped_148) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_4)
        %lay_149 = cute.get_layout(%res_target_tensors_17) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_150 = cute.get_layout(%res_smem_tensor_16) : !memref_smem_f16_2
        %append_151 = cute.append_to_rank<2> (%lay_149, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_152 = cute.make_int_tuple(%e1_22) : (!cute.int_tuple<"?{div=64}">) -> !cute.int_tuple<"(0,?{div=64})">
        %int_tup_iter_153 = cute.make_arith_tuple_iter(%int_tuple_152) : (!cute.int_tuple<"(0,?{div=64})">) -> !cute.arith_tuple_iter<"(0,?{div=64})">
        %view_154 = cute.make_view(%int_tup_iter_153, %append_151) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_155 = cute.group_modes(%view_154) <1, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_156 = cute.append_to_rank<2> (%lay_150, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_157 = cute.make_view(%iter_18, %append_156) : !memref_smem_f16_3
        %grouped_158 = cute.group_modes(%view_157) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_4
        %27 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %28 = cute_nvgpu.atom.set_value<tma_bar>(%27, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%28, %grouped_155, %grouped_158) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_4)
      }
      %19 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %19, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
      %coord_23 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %view, %coord_23) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_5
      %frg_A = cute.mma.make_fragment A (%arg5, %ptn_A) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_5) -> !memref_rmem_f16
      %ptn_B = cute.tiled.mma.partition B (%arg5, %view_5, %coord_23) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_6
      %frg_B = cute.mma.make_fragment B (%arg5, %ptn_B) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_6) -> !memref_rmem_f16_1
      %ptn_C = cute.tiled.mma.partition C (%arg5, %tiled_view_9, %coord_23) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f32_1, !cute.coord<"?">) -> !memref_gmem_f32_2
      %frg_C = cute.mma.make_fragment C (%arg5, %ptn_C) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f32_2) -> !memref_rmem_f32
      %lay_24 = cute.get_layout(%frg_C) : !memref_rmem_f32
      cute.memref.store_vec(%cst, %frg_C) : (vector<32xf32>, !memref_rmem_f32) -> ()
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>
      %20 = cute.make_tiled_copy(%atom) : !copy_ldsm_4
      %21 = cute.make_tiled_copy(%atom) : !copy_ldsm_4_1
      %src_partitioned = cute.tiled.copy.partition_S(%20, %view, %coord_23) : (!copy_ldsm_4, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled = cute.tiled.copy.retile(%20, %frg_A) : (!copy_ldsm_4, !memref_rmem_f16) -> !memref_rmem_f16_2
      %src_partitioned_25 = cute.tiled.copy.partition_S(%21, %view_5, %coord_23) : (!copy_ldsm_4_1, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled_26 = cute.tiled.copy.retile(%21, %frg_B) : (!copy_ldsm_4_1, !memref_rmem_f16_1) -> !memref_rmem_f16_3
      %coord_27 = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
      %slice = cute.slice(%src_partitioned, %coord_27) : !memref_smem_f16_7, !cute.coord<"(_,_,0)">
      %iter_28 = cute.get_iter(%slice) : !memref_smem_f16_8
      %slice_29 = cute.slice(%retiled, %coord_27) : !memref_rmem_f16_2, !cute.coord<"(_,_,0)">
      %iter_30 = cute.get_iter(%slice_29) : !memref_rmem_f16_4
      %lay_31 = cute.get_layout(%slice) : !memref_smem_f16_8
      %lay_32 = cute.get_layout(%slice_29) : !memref_rmem_f16_4
      %append = cute.append_to_rank<2> (%lay_31, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_33 = cute.make_view(%iter_28, %append) : !memref_smem_f16_8
      %grouped_34 = cute.group_modes(%view_33) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_35 = cute.append_to_rank<2> (%lay_32, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_36 = cute.make_view(%iter_30, %append_35) : !memref_rmem_f16_4
      %grouped_37 = cute.group_modes(%view_36) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_34, %grouped_37) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_38 = cute.slice(%src_partitioned_25, %coord_27) : !memref_smem_f16_7, !cute.coord<"(_,_,0)">
      %iter_39 = cute.get_iter(%slice_38) : !memref_smem_f16_8
      %slice_40 = cute.slice(%retiled_26, %coord_27) : !memref_rmem_f16_3, !cute.coord<"(_,_,0)">
      %iter_41 = cute.get_iter(%slice_40) : !memref_rmem_f16_6
      %lay_42 = cute.get_layout(%slice_38) : !memref_smem_f16_8
      %lay_43 = cute.get_layout(%slice_40) : !memref_rmem_f16_6
      %append_44 = cute.append_to_rank<2> (%lay_42, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_45 = cute.make_view(%iter_39, %append_44) : !memref_smem_f16_8
      %grouped_46 = cute.group_modes(%view_45) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_47 = cute.append_to_rank<2> (%lay_43, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_48 = cute.make_view(%iter_41, %append_47) : !memref_rmem_f16_6
      %grouped_49 = cute.group_modes(%view_48) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_46, %grouped_49) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_50 = cute.slice(%frg_A, %coord_27) : !memref_rmem_f16, !cute.coord<"(_,_,0)">
      %slice_51 = cute.slice(%frg_B, %coord_27) : !memref_rmem_f16_1, !cute.coord<"(_,_,0)">
      cute.gemm(%arg5, %frg_C, %slice_50, %slice_51, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_52 = cute.make_coord() : () -> !cute.coord<"(_,_,1)">
      %slice_53 = cute.slice(%src_partitioned, %coord_52) : !memref_smem_f16_7, !cute.coord<"(_,_,1)">
      %iter_54 = cute.get_iter(%slice_53) : !memref_smem_f16_8
      %slice_55 = cute.slice(%retiled, %coord_52) : !memref_rmem_f16_2, !cute.coord<"(_,_,1)">
      %iter_56 = cute.get_iter(%slice_55) : !memref_rmem_f16_4
      %lay_57 = cute.get_layout(%slice_53) : !memref_smem_f16_8
      %lay_58 = cute.get_layout(%slice_55) : !memref_rmem_f16_4
      %append_59 = cute.append_to_rank<2> (%lay_57, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_60 = cute.make_view(%iter_54, %append_59) : !memref_smem_f16_8
      %grouped_61 = cute.group_modes(%view_60) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_62 = cute.append_to_rank<2> (%lay_58, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_63 = cute.make_view(%iter_56, %append_62) : !memref_rmem_f16_4
      %grouped_64 = cute.group_modes(%view_63) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_61, %grouped_64) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_65 = cute.slice(%src_partitioned_25, %coord_52) : !memref_smem_f16_7, !cute.coord<"(_,_,1)">
      %iter_66 = cute.get_iter(%slice_65) : !memref_smem_f16_8
      %slice_67 = cute.slice(%retiled_26, %coord_52) : !memref_rmem_f16_3, !cute.coord<"(_,_,1)">
      %iter_68 = cute.get_iter(%slice_67) : !memref_rmem_f16_6
      %lay_69 = cute.get_layout(%slice_65) : !memref_smem_f16_8
      %lay_70 = cute.get_layout(%slice_67) : !memref_rmem_f16_6
      %append_71 = cute.append_to_rank<2> (%lay_69, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_72 = cute.make_view(%iter_66, %append_71) : !memref_smem_f16_8
      %grouped_73 = cute.group_modes(%view_72) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_74 = cute.append_to_rank<2> (%lay_70, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_75 = cute.make_view(%iter_68, %append_74) : !memref_rmem_f16_6
      %grouped_76 = cute.group_modes(%view_75) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_73, %grouped_76) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_77 = cute.slice(%frg_A, %coord_52) : !memref_rmem_f16, !cute.coord<"(_,_,1)">
      %slice_78 = cute.slice(%frg_B, %coord_52) : !memref_rmem_f16_1, !cute.coord<"(_,_,1)">
      cute.gemm(%arg5, %frg_C, %slice_77, %slice_78, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_79 = cute.make_coord() : () -> !cute.coord<"(_,_,2)">
      %slice_80 = cute.slice(%src_partitioned, %coord_79) : !memref_smem_f16_7, !cute.coord<"(_,_,2)">
      %iter_81 = cute.get_iter(%slice_80) : !memref_smem_f16_8
      %slice_82 = cute.slice(%retiled, %coord_79) : !memref_rmem_f16_2, !cute.coord<"(_,_,2)">
      %iter_83 = cute.get_iter(%slice_82) : !memref_rmem_f16_4
      %lay_84 = cute.get_layout(%slice_80) : !memref_smem_f16_8
      %lay_85 = cute.get_layout(%slice_82) : !memref_rmem_f16_4
      %append_86 = cute.append_to_rank<2> (%lay_84, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_87 = cute.make_view(%iter_81, %append_86) : !memref_smem_f16_8
      %grouped_88 = cute.group_modes(%view_87) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_89 = cute.append_to_rank<2> (%lay_85, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_90 = cute.make_view(%iter_83, %append_89) : !memref_rmem_f16_4
      %grouped_91 = cute.group_modes(%view_90) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_88, %grouped_91) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_92 = cute.slice(%src_partitioned_25, %coord_79) : !memref_smem_f16_7, !cute.coord<"(_,_,2)">
      %iter_93 = cute.get_iter(%slice_92) : !memref_smem_f16_8
      %slice_94 = cute.slice(%retiled_26, %coord_79) : !memref_rmem_f16_3, !cute.coord<"(_,_,2)">
      %iter_95 = cute.get_iter(%slice_94) : !memref_rmem_f16_6
      %lay_96 = cute.get_layout(%slice_92) : !memref_smem_f16_8
      %lay_97 = cute.get_layout(%slice_94) : !memref_rmem_f16_6
      %append_98 = cute.append_to_rank<2> (%lay_96, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_99 = cute.make_view(%iter_93, %append_98) : !memref_smem_f16_8
      %grouped_100 = cute.group_modes(%view_99) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_101 = cute.append_to_rank<2> (%lay_97, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_102 = cute.make_view(%iter_95, %append_101) : !memref_rmem_f16_6
      %grouped_103 = cute.group_modes(%view_102) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_100, %grouped_103) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_104 = cute.slice(%frg_A, %coord_79) : !memref_rmem_f16, !cute.coord<"(_,_,2)">
      %slice_105 = cute.slice(%frg_B, %coord_79) : !memref_rmem_f16_1, !cute.coord<"(_,_,2)">
      cute.gemm(%arg5, %frg_C, %slice_104, %slice_105, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_106 = cute.make_coord() : () -> !cute.coord<"(_,_,3)">
      %slice_107 = cute.slice(%src_partitioned, %coord_106) : !memref_smem_f16_7, !cute.coord<"(_,_,3)">
      %iter_108 = cute.get_iter(%slice_107) : !memref_smem_f16_8
      %slice_109 = cute.slice(%retiled, %coord_106) : !memref_rmem_f16_2, !cute.coord<"(_,_,3)">
      %iter_110 = cute.get_iter(%slice_109) : !memref_rmem_f16_4
      %lay_111 = cute.get_layout(%slice_107) : !memref_smem_f16_8
      %lay_112 = cute.get_layout(%slice_109) : !memref_rmem_f16_4
      %append_113 = cute.append_to_rank<2> (%lay_111, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_114 = cute.make_view(%iter_108, %append_113) : !memref_smem_f16_8
      %grouped_115 = cute.group_modes(%view_114) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_116 = cute.append_to_rank<2> (%lay_112, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_117 = cute.make_view(%iter_110, %append_116) : !memref_rmem_f16_4
      %grouped_118 = cute.group_modes(%view_117) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_115, %grouped_118) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_119 = cute.slice(%src_partitioned_25, %coord_106) : !memref_smem_f16_7, !cute.coord<"(_,_,3)">
      %iter_120 = cute.get_iter(%slice_119) : !memref_smem_f16_8
      %slice_121 = cute.slice(%retiled_26, %coord_106) : !memref_rmem_f16_3, !cute.coord<"(_,_,3)">
      %iter_122 = cute.get_iter(%slice_121) : !memref_rmem_f16_6
      %lay_123 = cute.get_layout(%slice_119) : !memref_smem_f16_8
      %lay_124 = cute.get_layout(%slice_121) : !memref_rmem_f16_6
      %append_125 = cute.append_to_rank<2> (%lay_123, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_126 = cute.make_view(%iter_120, %append_125) : !memref_smem_f16_8
      %grouped_127 = cute.group_modes(%view_126) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_128 = cute.append_to_rank<2> (%lay_124, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_129 = cute.make_view(%iter_122, %append_128) : !memref_rmem_f16_6
      %grouped_130 = cute.group_modes(%view_129) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_127, %grouped_130) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_131 = cute.slice(%frg_A, %coord_106) : !memref_rmem_f16, !cute.coord<"(_,_,3)">
      %slice_132 = cute.slice(%frg_B, %coord_106) : !memref_rmem_f16_1, !cute.coord<"(_,_,3)">
      cute.gemm(%arg5, %frg_C, %slice_131, %slice_132, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %lay_133 = cute.get_layout(%ptn_C) : !memref_gmem_f32_2
      %rinv = cute.right_inverse(%lay_133) : (!cute.layout<"((2,2),2,4):((1,1024),4096,16)">) -> !cute.layout<"2:1">
      %22 = cute.composition(%lay_24, %rinv) : (!cute.layout<"((2,2),2,4):((1,2),4,8)">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %coalesce = cute.coalesce(%22) : (!cute.layout<"2:1">) -> !cute.layout<"2:1">
      %23 = cute.composition(%rinv, %coalesce) : (!cute.layout<"2:1">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %div = cute.logical_divide(%frg_C, %23) : !memref_rmem_f32, !cute.layout<"2:1">
      %div_134 = cute.logical_divide(%ptn_C, %23) : !memref_gmem_f32_2, !cute.layout<"2:1">
      %shape_135 = cute.make_shape() : () -> !cute.shape<"2">
      %lay_136 = cute.make_layout(%shape_135) : !cute.layout<"2:1">
      %div_137 = cute.logical_divide(%div, %lay_136) : !memref_rmem_f32_1, !cute.layout<"2:1">
      %div_138 = cute.logical_divide(%div_134, %lay_136) : !memref_gmem_f32_3, !cute.layout<"2:1">
      %atom_139 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32, 64 b>
      cute.copy(%atom_139, %div_137, %div_138) : (!cute_nvgpu.atom.universal_copy<f32, 64 b>, !memref_rmem_f32_1, !memref_gmem_f32_3)
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat1612864641_FakeTensorFloat1612864721_FakeTensorFloat321281281281_FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16_1, %arg2: !memref_gmem_f32, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
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
    %shape_3 = cute.make_shape() : () -> !cute.shape<"(128,64)">
    %1 = cute.make_identity_layout(%shape_3) : !cute.layout<"(128,64):(1@0,1@1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
    %2 = cute.composition(%1, %tile) : (!cute.layout<"(128,64):(1@0,1@1)">, !cute.tile<"[64:1;64:1]">) -> !cute.layout<"(64,64):(1@0,1@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %tile_to_shape, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">)
    %non_exec_atom_4, %tma_tensor_5 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %tile_to_shape, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">)
    %atom = cute.make_atom() : () -> !cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32) >
    %3 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_16x8x16
    %4 = cute.kernel_smem_size @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0 : i64
    %5 = arith.cmpi sgt, %4, %c232448_i64 : i64
    scf.if %5 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0' launch shared memory exceeds current GPU arch sm_90a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %4) : i64
    }
    %6 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %4, gridDim = (%c2_i32, %c2_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %7 = cuda.launch_ex @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0<%6> (%non_exec_atom, %tma_tensor, %non_exec_atom_4, %tma_tensor_5, %arg2, %3, %tile_to_shape, %tile_to_shape, %tile_to_shape) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_16x8x16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cuda.result
    %8 = cuda.cast %7 : !cuda.result -> i32
    cuda.return_if_error %8 : i32
    return %c0_i32 : i32
  }
}

