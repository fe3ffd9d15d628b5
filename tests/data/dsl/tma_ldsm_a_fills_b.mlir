// made by: python tests/dsl_tma_kernel.py tests/data/dsl/tma_ldsm_a_fills_b.mlir mma=sync tiles=grid a_fills=b (the CuTe DSL, CUTE_DSL_ARCH=sm_90a, CUTE_DSL_KEEP=ir)
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
      %coord = cute.make_coord(%17) : (i32) -> !cute.coord<"(?,0)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(?,0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">
      %coord_7 = cute.make_coord(%18) : (i32) -> !cute.coord<"(?,0)">
      %tiled_view_8 = cute.local_tile(%arg3, %tile, %coord_7) : (!cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(?,0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">
      %coord_9 = cute.make_coord(%17, %18) : (i32, i32) -> !cute.coord<"(?,?)">
      %tiled_view_10 = cute.local_tile(%arg4, %tile, %coord_9) : (!memref_gmem_f32, !cute.tile<"[64:1;64:1]">, !cute.coord<"(?,?)">) -> !memref_gmem_f32_1
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view_5) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_11 = cute.group_modes(%tiled_view) <0, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">
      %coord_12 = cute.make_coord() : () -> !cute.coord<"0">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg0, %coord_12, %lay, %grouped, %grouped_11) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_13 = cute.get_iter(%res_smem_tensor) : !memref_smem_f16_2
      %iter_14 = cute.get_iter(%res_target_tensors) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
      %tup = cute.deref_arith_tuple_iter(%iter_14) : !cute.arith_tuple_iter<"(0,?{div=64})">
      %e0, %e1 = cute.get_leaves(%tup) : !cute.int_tuple<"(0,?{div=64})">
      %grouped_15 = cute.group_modes(%view_6) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_16 = cute.group_modes(%tiled_view_8) <0, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">
      %res_smem_tensor_17, %res_target_tensors_18 = cute_nvgpu.atom.tma_partition(%arg2, %coord_12, %lay, %grouped_15, %grouped_16) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,?{div=64})", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">)
      %iter_19 = cute.get_iter(%res_smem_tensor_17) : !memref_smem_f16_2
      %iter_20 = cute.get_iter(%res_target_tensors_18) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
      %tup_21 = cute.deref_arith_tuple_iter(%iter_20) : !cute.arith_tuple_iter<"(0,?{div=64})">
      %e0_22, %e1_23 = cute.get_leaves(%tup_21) : !cute.int_tuple<"(0,?{div=64})">
      scf.if %16 {
        %24 = nvvm.elect.sync -> i1
        scf.if %24 {
          %29 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          %30 = nvvm.mbarrier.arrive.expect_tx %29, %c16384_i32 : !llvm.ptr<3>, i32 -> i64
        }
        %lay_141 = cute.get_layout(%res_target_tensors) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_142 = cute.get_layout(%res_smem_tensor) : !memref_smem_f16_2
        %append_143 = cute.append_to_rank<2> (%lay_141, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_144 = cute.make_int_tuple(%e1) : (!cute.int_tuple<"?{div=64}">) -> !cute.int_tuple<"(0,?{div=64})">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_144) : (!cute.int_tuple<"(0,?{div=64})">) -> !cute.arith_tuple_iter<"(0,?{div=64})">
        %view_145 = cute.make_view(%int_tup_iter, %append_143) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_146 = cute.group_modes(%view_145) <1, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_147 = cute.append_to_rank<2> (%lay_142, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_148 = cute.make_view(%iter_13, %append_147) : !memref_smem_f16_3
        %grouped_149 = cute.group_modes(%view_148) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_4
        %25 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %26 = cute_nvgpu.atom.set_value<tma_bar>(%25, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%26, %grouped_146, %grouped_149) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_4)
        %lay_150 = cute.get_layout(%res_target_tensors_18) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_151 = cute.get_layout(%res_smem_tensor_17) : !memref_smem_f16_2
        %append_152 = cute.append_to_rank<2> (%lay_150, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_153 = cute.make_int_tuple(%e1_23) : (!cute.int_tuple<"?{div=64}">) -> !cute.int_tuple<"(0,?{div=64})">
        %int_tup_iter_154 = cute.make_arith_tuple_iter(%int_tuple_153) : (!cute.int_tuple<"(0,?{div=64})">) -> !cute.arith_tuple_iter<"(0,?{div=64})">
        %view_155 = cute.make_view(%int_tup_iter_154, %append_152) : !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_156 = cute.group_modes(%view_155) <1, 2> : (!cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_157 = cute.append_to_rank<2> (%lay_151, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_158 = cute.make_view(%iter_19, %append_157) : !memref_smem_f16_3
        %grouped_159 = cute.group_modes(%view_158) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_4
        %27 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %28 = cute_nvgpu.atom.set_value<tma_bar>(%27, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%28, %grouped_156, %grouped_159) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,?{div=64})", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_4)
      }
      %19 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %19, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
      %coord_24 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %view, %coord_24) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_5
      %frg_A = cute.mma.make_fragment A (%arg5, %ptn_A) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_5) -> !memref_rmem_f16
      %ptn_B = cute.tiled.mma.partition B (%arg5, %view_5, %coord_24) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_6
      %frg_B = cute.mma.make_fragment B (%arg5, %ptn_B) : (!mma_f16_f16_f32_16x8x16, !memref_smem_f16_6) -> !memref_rmem_f16_1
      %ptn_C = cute.tiled.mma.partition C (%arg5, %tiled_view_10, %coord_24) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f32_1, !cute.coord<"?">) -> !memref_gmem_f32_2
      %frg_C = cute.mma.make_fragment C (%arg5, %ptn_C) : (!mma_f16_f16_f32_16x8x16, !memref_gmem_f32_2) -> !memref_rmem_f32
      %lay_25 = cute.get_layout(%frg_C) : !memref_rmem_f32
      cute.memref.store_vec(%cst, %frg_C) : (vector<32xf32>, !memref_rmem_f32) -> ()
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, num_matrices = 4, n>
      %20 = cute.make_tiled_copy(%atom) : !copy_ldsm_4
      %21 = cute.make_tiled_copy(%atom) : !copy_ldsm_4_1
      %src_partitioned = cute.tiled.copy.partition_S(%20, %view, %coord_24) : (!copy_ldsm_4, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled = cute.tiled.copy.retile(%20, %frg_A) : (!copy_ldsm_4, !memref_rmem_f16) -> !memref_rmem_f16_2
      %src_partitioned_26 = cute.tiled.copy.partition_S(%21, %view_5, %coord_24) : (!copy_ldsm_4_1, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_7
      %retiled_27 = cute.tiled.copy.retile(%21, %frg_B) : (!copy_ldsm_4_1, !memref_rmem_f16_1) -> !memref_rmem_f16_3
      %coord_28 = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
      %slice = cute.slice(%src_partitioned, %coord_28) : !memref_smem_f16_7, !cute.coord<"(_,_,0)">
      %iter_29 = cute.get_iter(%slice) : !memref_smem_f16_8
      %slice_30 = cute.slice(%retiled, %coord_28) : !memref_rmem_f16_2, !cute.coord<"(_,_,0)">
      %iter_31 = cute.get_iter(%slice_30) : !memref_rmem_f16_4
      %lay_32 = cute.get_layout(%slice) : !memref_smem_f16_8
      %lay_33 = cute.get_layout(%slice_30) : !memref_rmem_f16_4
      %append = cute.append_to_rank<2> (%lay_32, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_34 = cute.make_view(%iter_29, %append) : !memref_smem_f16_8
      %grouped_35 = cute.group_modes(%view_34) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_36 = cute.append_to_rank<2> (%lay_33, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_37 = cute.make_view(%iter_31, %append_36) : !memref_rmem_f16_4
      %grouped_38 = cute.group_modes(%view_37) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_35, %grouped_38) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_39 = cute.slice(%src_partitioned_26, %coord_28) : !memref_smem_f16_7, !cute.coord<"(_,_,0)">
      %iter_40 = cute.get_iter(%slice_39) : !memref_smem_f16_8
      %slice_41 = cute.slice(%retiled_27, %coord_28) : !memref_rmem_f16_3, !cute.coord<"(_,_,0)">
      %iter_42 = cute.get_iter(%slice_41) : !memref_rmem_f16_6
      %lay_43 = cute.get_layout(%slice_39) : !memref_smem_f16_8
      %lay_44 = cute.get_layout(%slice_41) : !memref_rmem_f16_6
      %append_45 = cute.append_to_rank<2> (%lay_43, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_46 = cute.make_view(%iter_40, %append_45) : !memref_smem_f16_8
      %grouped_47 = cute.group_modes(%view_46) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_48 = cute.append_to_rank<2> (%lay_44, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_49 = cute.make_view(%iter_42, %append_48) : !memref_rmem_f16_6
      %grouped_50 = cute.group_modes(%view_49) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_47, %grouped_50) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_51 = cute.slice(%frg_A, %coord_28) : !memref_rmem_f16, !cute.coord<"(_,_,0)">
      %slice_52 = cute.slice(%frg_B, %coord_28) : !memref_rmem_f16_1, !cute.coord<"(_,_,0)">
      cute.gemm(%arg5, %frg_C, %slice_51, %slice_52, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_53 = cute.make_coord() : () -> !cute.coord<"(_,_,1)">
      %slice_54 = cute.slice(%src_partitioned, %coord_53) : !memref_smem_f16_7, !cute.coord<"(_,_,1)">
      %iter_55 = cute.get_iter(%slice_54) : !memref_smem_f16_8
      %slice_56 = cute.slice(%retiled, %coord_53) : !memref_rmem_f16_2, !cute.coord<"(_,_,1)">
      %iter_57 = cute.get_iter(%slice_56) : !memref_rmem_f16_4
      %lay_58 = cute.get_layout(%slice_54) : !memref_smem_f16_8
      %lay_59 = cute.get_layout(%slice_56) : !memref_rmem_f16_4
      %append_60 = cute.append_to_rank<2> (%lay_58, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_61 = cute.make_view(%iter_55, %append_60) : !memref_smem_f16_8
      %grouped_62 = cute.group_modes(%view_61) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_63 = cute.append_to_rank<2> (%lay_59, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_64 = cute.make_view(%iter_57, %append_63) : !memref_rmem_f16_4
      %grouped_65 = cute.group_modes(%view_64) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_62, %grouped_65) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_66 = cute.slice(%src_partitioned_26, %coord_53) : !memref_smem_f16_7, !cute.coord<"(_,_,1)">
      %iter_67 = cute.get_iter(%slice_66) : !memref_smem_f16_8
      %slice_68 = cute.slice(%retiled_27, %coord_53) : !memref_rmem_f16_3, !cute.coord<"(_,_,1)">
      %iter_69 = cute.get_iter(%slice_68) : !memref_rmem_f16_6
      %lay_70 = cute.get_layout(%slice_66) : !memref_smem_f16_8
      %lay_71 = cute.get_layout(%slice_68) : !memref_rmem_f16_6
      %append_72 = cute.append_to_rank<2> (%lay_70, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_73 = cute.make_view(%iter_67, %append_72) : !memref_smem_f16_8
      %grouped_74 = cute.group_modes(%view_73) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_75 = cute.append_to_rank<2> (%lay_71, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_76 = cute.make_view(%iter_69, %append_75) : !memref_rmem_f16_6
      %grouped_77 = cute.group_modes(%view_76) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_74, %grouped_77) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_78 = cute.slice(%frg_A, %coord_53) : !memref_rmem_f16, !cute.coord<"(_,_,1)">
      %slice_79 = cute.slice(%frg_B, %coord_53) : !memref_rmem_f16_1, !cute.coord<"(_,_,1)">
      cute.gemm(%arg5, %frg_C, %slice_78, %slice_79, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_80 = cute.make_coord() : () -> !cute.coord<"(_,_,2)">
      %slice_81 = cute.slice(%src_partitioned, %coord_80) : !memref_smem_f16_7, !cute.coord<"(_,_,2)">
      %iter_82 = cute.get_iter(%slice_81) : !memref_smem_f16_8
      %slice_83 = cute.slice(%retiled, %coord_80) : !memref_rmem_f16_2, !cute.coord<"(_,_,2)">
      %iter_84 = cute.get_iter(%slice_83) : !memref_rmem_f16_4
      %lay_85 = cute.get_layout(%slice_81) : !memref_smem_f16_8
      %lay_86 = cute.get_layout(%slice_83) : !memref_rmem_f16_4
      %append_87 = cute.append_to_rank<2> (%lay_85, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_88 = cute.make_view(%iter_82, %append_87) : !memref_smem_f16_8
      %grouped_89 = cute.group_modes(%view_88) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_90 = cute.append_to_rank<2> (%lay_86, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_91 = cute.make_view(%iter_84, %append_90) : !memref_rmem_f16_4
      %grouped_92 = cute.group_modes(%view_91) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_89, %grouped_92) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_93 = cute.slice(%src_partitioned_26, %coord_80) : !memref_smem_f16_7, !cute.coord<"(_,_,2)">
      %iter_94 = cute.get_iter(%slice_93) : !memref_smem_f16_8
      %slice_95 = cute.slice(%retiled_27, %coord_80) : !memref_rmem_f16_3, !cute.coord<"(_,_,2)">
      %iter_96 = cute.get_iter(%slice_95) : !memref_rmem_f16_6
      %lay_97 = cute.get_layout(%slice_93) : !memref_smem_f16_8
      %lay_98 = cute.get_layout(%slice_95) : !memref_rmem_f16_6
      %append_99 = cute.append_to_rank<2> (%lay_97, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_100 = cute.make_view(%iter_94, %append_99) : !memref_smem_f16_8
      %grouped_101 = cute.group_modes(%view_100) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_102 = cute.append_to_rank<2> (%lay_98, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_103 = cute.make_view(%iter_96, %append_102) : !memref_rmem_f16_6
      %grouped_104 = cute.group_modes(%view_103) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_101, %grouped_104) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_105 = cute.slice(%frg_A, %coord_80) : !memref_rmem_f16, !cute.coord<"(_,_,2)">
      %slice_106 = cute.slice(%frg_B, %coord_80) : !memref_rmem_f16_1, !cute.coord<"(_,_,2)">
      cute.gemm(%arg5, %frg_C, %slice_105, %slice_106, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %coord_107 = cute.make_coord() : () -> !cute.coord<"(_,_,3)">
      %slice_108 = cute.slice(%src_partitioned, %coord_107) : !memref_smem_f16_7, !cute.coord<"(_,_,3)">
      %iter_109 = cute.get_iter(%slice_108) : !memref_smem_f16_8
      %slice_110 = cute.slice(%retiled, %coord_107) : !memref_rmem_f16_2, !cute.coord<"(_,_,3)">
      %iter_111 = cute.get_iter(%slice_110) : !memref_rmem_f16_4
      %lay_112 = cute.get_layout(%slice_108) : !memref_smem_f16_8
      %lay_113 = cute.get_layout(%slice_110) : !memref_rmem_f16_4
      %append_114 = cute.append_to_rank<2> (%lay_112, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_115 = cute.make_view(%iter_109, %append_114) : !memref_smem_f16_8
      %grouped_116 = cute.group_modes(%view_115) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_117 = cute.append_to_rank<2> (%lay_113, %lay) : !cute.layout<"((8,1),2):((1,0),32)">, !cute.layout<"1:0">
      %view_118 = cute.make_view(%iter_111, %append_117) : !memref_rmem_f16_4
      %grouped_119 = cute.group_modes(%view_118) <1, 2> : (!memref_rmem_f16_4) -> !memref_rmem_f16_5
      cute.copy(%20, %grouped_116, %grouped_119) : (!copy_ldsm_4, !memref_smem_f16_9, !memref_rmem_f16_5)
      %slice_120 = cute.slice(%src_partitioned_26, %coord_107) : !memref_smem_f16_7, !cute.coord<"(_,_,3)">
      %iter_121 = cute.get_iter(%slice_120) : !memref_smem_f16_8
      %slice_122 = cute.slice(%retiled_27, %coord_107) : !memref_rmem_f16_3, !cute.coord<"(_,_,3)">
      %iter_123 = cute.get_iter(%slice_122) : !memref_rmem_f16_6
      %lay_124 = cute.get_layout(%slice_120) : !memref_smem_f16_8
      %lay_125 = cute.get_layout(%slice_122) : !memref_rmem_f16_6
      %append_126 = cute.append_to_rank<2> (%lay_124, %lay) : !cute.layout<"((8,1),2):((1,0),2048)">, !cute.layout<"1:0">
      %view_127 = cute.make_view(%iter_121, %append_126) : !memref_smem_f16_8
      %grouped_128 = cute.group_modes(%view_127) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
      %append_129 = cute.append_to_rank<2> (%lay_125, %lay) : !cute.layout<"(((4,2),1),2):(((1,16),0),32)">, !cute.layout<"1:0">
      %view_130 = cute.make_view(%iter_123, %append_129) : !memref_rmem_f16_6
      %grouped_131 = cute.group_modes(%view_130) <1, 2> : (!memref_rmem_f16_6) -> !memref_rmem_f16_7
      cute.copy(%21, %grouped_128, %grouped_131) : (!copy_ldsm_4_1, !memref_smem_f16_9, !memref_rmem_f16_7)
      %slice_132 = cute.slice(%frg_A, %coord_107) : !memref_rmem_f16, !cute.coord<"(_,_,3)">
      %slice_133 = cute.slice(%frg_B, %coord_107) : !memref_rmem_f16_1, !cute.coord<"(_,_,3)">
      cute.gemm(%arg5, %frg_C, %slice_132, %slice_133, %frg_C) : (!mma_f16_f16_f32_16x8x16, !memref_rmem_f32, !memref_rmem_f16_8, !memref_rmem_f16_9, !memref_rmem_f32)
      %lay_134 = cute.get_layout(%ptn_C) : !memref_gmem_f32_2
      %rinv = cute.right_inverse(%lay_134) : (!cute.layout<"((2,2),2,4):((1,1024),4096,16)">) -> !cute.layout<"2:1">
      %22 = cute.composition(%lay_25, %rinv) : (!cute.layout<"((2,2),2,4):((1,2),4,8)">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %coalesce = cute.coalesce(%22) : (!cute.layout<"2:1">) -> !cute.layout<"2:1">
      %23 = cute.composition(%rinv, %coalesce) : (!cute.layout<"2:1">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %div = cute.logical_divide(%frg_C, %23) : !memref_rmem_f32, !cute.layout<"2:1">
      %div_135 = cute.logical_divide(%ptn_C, %23) : !memref_gmem_f32_2, !cute.layout<"2:1">
      %shape_136 = cute.make_shape() : () -> !cute.shape<"2">
      %lay_137 = cute.make_layout(%shape_136) : !cute.layout<"2:1">
      %div_138 = cute.logical_divide(%div, %lay_137) : !memref_rmem_f32_1, !cute.layout<"2:1">
      %div_139 = cute.logical_divide(%div_135, %lay_137) : !memref_gmem_f32_3, !cute.layout<"2:1">
      %atom_140 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32, 64 b>
      cute.copy(%atom_140, %div_138, %div_139) : (!cute_nvgpu.atom.universal_copy<f32, 64 b>, !memref_rmem_f32_1, !memref_gmem_f32_3)
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

