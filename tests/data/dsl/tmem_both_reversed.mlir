// made by: python tests/dsl_tmem_kernel.py tests/data/dsl/tmem_both_reversed.mlir acc_stage=both_reversed (the CuTe DSL, CUTE_DSL_ARCH=sm_100a, CUTE_DSL_KEEP=ir)
!copy_ldtm_32 = !cute.tiled_copy<!cute_nvgpu.atom.tmem_load<f32, 32 DP, 32 bit, x64>, layout_copy_tv = <"((32,4),(64,32)):((0,1),(4,256))">, tiler_mn = <"[(256,32):(32,1);1:0;1:0]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(128,64):(64,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(128,?{div=64}):(?{div=64},1)">
!memref_gmem_f32_1 = !cute.memref<f32, gmem, align<16>, "(128,64):(?{div=64},1)">
!memref_gmem_f32_2 = !cute.memref<f32, gmem, align<16>, "((128,64),1,1):((?{div=64},1),0,0)">
!memref_gmem_f32_3 = !cute.memref<f32, gmem, align<16>, "((64,1),1,1,1):((1,0),0,0,0)">
!memref_gmem_f32_4 = !cute.memref<f32, gmem, align<16>, "(64,1):(1,0)">
!memref_gmem_f32_5 = !cute.memref<f32, gmem, align<16>, "(4,16):(1,4)">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<32>, "((64,1),1,1,1):((1,0),0,0,0)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, align<32>, "((64,1),(1,1,1)):((1,0),(0,0,0))">
!memref_rmem_f32_2 = !cute.memref<f32, rmem, align<32>, "(64,1):(1,0)">
!memref_rmem_f32_3 = !cute.memref<f32, rmem, align<32>, "(4,16):(1,4)">
!memref_smem_f16 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((128,16),1,4,1):((64,1),0,16,0)">
!memref_smem_f16_1 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((64,16),1,4,1):((64,1),0,16,0)">
!memref_smem_f16_2 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((128,16),1,4),1):(((64,1),0,16),0)">
!memref_smem_f16_3 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8192,1),1):((1,0),0)">
!memref_smem_f16_4 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((64,16),1,4),1):(((64,1),0,16),0)">
!memref_smem_f16_5 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),1):((1,0),0)">
!memref_smem_f16_6 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8192,1)):((1,0))">
!memref_smem_f16_7 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8192,1),(1)):((1,0),(0))">
!memref_smem_f16_8 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1)):((1,0))">
!memref_smem_f16_9 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),(1)):((1,0),(0))">
!memref_smem_i8 = !cute.memref<i8, smem, align<1024>, "25600:1">
!memref_tmem_f32 = !cute.memref<f32, tmem, align<1>, "((128,64),1,1,2):((65536,1),0,0,64)">
!memref_tmem_f32_1 = !cute.memref<f32, tmem, align<16>, "((128,64),1,1,2):((65536,1),0,0,64)">
!memref_tmem_f32_2 = !cute.memref<f32, tmem, align<16>, "((128,64),1,1):((65536,1),0,0)">
!memref_tmem_f32_3 = !cute.memref<f32, tmem, align<16>, "(((64,32),1),1,1,1):(((1,65536),0),0,0,0)">
!memref_tmem_f32_4 = !cute.memref<f32, tmem, align<16>, "(((64,32),1),(1,1,1)):(((1,65536),0),(0,0,0))">
!mma_f16_f16_f32_128x64x16 = !cute.tiled_mma<!cute_nvgpu.sm100.mma<128x64x16, num_cta = 1, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss, c_scale_exp = 0>, atom_layout_MNK = <"(1,1,1):(0,0,0)">, permutation_MNK = <"[_;_;_]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_128x64x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">, %arg8: i32) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %true = arith.constant true
      %false = arith.constant false
      %c2_i32 = arith.constant 2 : i32
      %c10000000_i32 = arith.constant 10000000 : i32
      %c24576_i32 = arith.constant 24576 : i32
      %c128_i32 = arith.constant 128 : i32
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
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32, smem.struct_fields = ["loaded:8:0", "acc_full:16:8", "acc_empty:16:24", "tmem_base:4:40", "a:16384:1024", "b:8192:17408"]} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"8">
      %ptr = cute.add_offset(%iter, %int_tuple) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"8">) -> !cute.ptr<i8, smem, align<8>>
      %int_tuple_0 = cute.make_int_tuple() : () -> !cute.int_tuple<"24">
      %ptr_1 = cute.add_offset(%iter, %int_tuple_0) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"24">) -> !cute.ptr<i8, smem, align<8>>
      %int_tuple_2 = cute.make_int_tuple() : () -> !cute.int_tuple<"40">
      %ptr_3 = cute.add_offset(%iter, %int_tuple_2) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"40">) -> !cute.ptr<i8, smem, align<8>>
      %iter_4 = cute.recast_iter(%ptr_3) : !cute.ptr<i8, smem, align<8>> to !cute.ptr<i32, smem, align<8>>
      %int_tuple_5 = cute.make_int_tuple() : () -> !cute.int_tuple<"1024">
      %ptr_6 = cute.add_offset(%iter, %int_tuple_5) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"1024">) -> !cute.ptr<i8, smem, align<1024>>
      %int_tuple_7 = cute.make_int_tuple() : () -> !cute.int_tuple<"17408">
      %ptr_8 = cute.add_offset(%iter, %int_tuple_7) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"17408">) -> !cute.ptr<i8, smem, align<1024>>
      %iter_9 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<i64, smem, align<1024>>
      %iter_10 = cute.recast_iter(%ptr) : !cute.ptr<i8, smem, align<8>> to !cute.ptr<i64, smem>
      %iter_11 = cute.recast_iter(%ptr_1) : !cute.ptr<i8, smem, align<8>> to !cute.ptr<i64, smem>
      %13 = cute.composed_get_outer(%arg6) : (!cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">) -> !cute.layout<"((128,16),1,4,1):((64,1),0,16,0)">
      %iter_12 = cute.recast_iter(%ptr_6) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view = cute.make_view(%iter_12, %13) : !memref_smem_f16
      %14 = cute.composed_get_outer(%arg7) : (!cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">) -> !cute.layout<"((64,16),1,4,1):((64,1),0,16,0)">
      %iter_13 = cute.recast_iter(%ptr_8) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view_14 = cute.make_view(%iter_13, %14) : !memref_smem_f16_1
      %15 = arith.cmpi eq, %12, %c0_i32 : i32
      scf.if %15 {
        %16 = nvvm.elect.sync -> i1
        scf.if %16 {
          %17 = builtin.unrealized_conversion_cast %iter_9 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          nvvm.mbarrier.init %17, %c1_i32 : !llvm.ptr<3>, i32
          %18 = builtin.unrealized_conversion_cast %iter_10 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.init %18, %c1_i32 : !llvm.ptr<3>, i32
          %19 = builtin.unrealized_conversion_cast %iter_11 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.init %19, %c128_i32 : !llvm.ptr<3>, i32
          %int_tuple_24 = cute.make_int_tuple() : () -> !cute.int_tuple<"1">
          %ptr_25 = cute.add_offset(%iter_10, %int_tuple_24) : (!cute.ptr<i64, smem>, !cute.int_tuple<"1">) -> !cute.ptr<i64, smem>
          %20 = builtin.unrealized_conversion_cast %ptr_25 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.init %20, %c1_i32 : !llvm.ptr<3>, i32
          %ptr_26 = cute.add_offset(%iter_11, %int_tuple_24) : (!cute.ptr<i64, smem>, !cute.int_tuple<"1">) -> !cute.ptr<i64, smem>
          %21 = builtin.unrealized_conversion_cast %ptr_26 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.init %21, %c128_i32 : !llvm.ptr<3>, i32
        }
        cute_nvgpu.arch.sm100.alloc_tmem(%c128_i32, %iter_4) [ cta_1] : i32, !cute.ptr<i32, smem, align<8>>
        cute_nvgpu.arch.sm100.relinquish_tmem_alloc_permit [ cta_1]
      }
      nvvm.fence.mbarrier.init
      nvvm.barrier
      %tile = cute.make_tile() : () -> !cute.tile<"[128:1;64:1]">
      %coord = cute.make_coord() : () -> !cute.coord<"(0,0)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute.tile<"[128:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">
      %coord_15 = cute.make_coord() : () -> !cute.coord<"0">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %tiled_view, %coord_15) : (!mma_f16_f16_f32_128x64x16, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute.coord<"0">) -> !cute.coord_tensor<"(0,0)", "((128,16),1,4):((1@1,1@0),0,16@0)">
      %tile_16 = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
      %tiled_view_17 = cute.local_tile(%arg3, %tile_16, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %ptn_B = cute.tiled.mma.partition B (%arg5, %tiled_view_17, %coord_15) : (!mma_f16_f16_f32_128x64x16, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.coord<"0">) -> !cute.coord_tensor<"(0,0)", "((64,16),1,4):((1@1,1@0),0,16@0)">
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view) <0, 3> : (!memref_smem_f16) -> !memref_smem_f16_2
      %grouped_18 = cute.group_modes(%ptn_A) <0, 3> : (!cute.coord_tensor<"(0,0)", "((128,16),1,4):((1@1,1@0),0,16@0)">) -> !cute.coord_tensor<"(0,0)", "(((128,16),1,4)):(((1@1,1@0),0,16@0))">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg0, %coord_15, %lay, %grouped, %grouped_18) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "(((128,16),1,4)):(((1@1,1@0),0,16@0))">) -> (!memref_smem_f16_3, !cute.coord_tensor<"(0,0)", "(((64,128),1)):(((1@0,1@1),0))">)
      %grouped_19 = cute.group_modes(%view_14) <0, 3> : (!memref_smem_f16_1) -> !memref_smem_f16_4
      %grouped_20 = cute.group_modes(%ptn_B) <0, 3> : (!cute.coord_tensor<"(0,0)", "((64,16),1,4):((1@1,1@0),0,16@0)">) -> !cute.coord_tensor<"(0,0)", "(((64,16),1,4)):(((1@1,1@0),0,16@0))">
      %res_smem_tensor_21, %res_target_tensors_22 = cute_nvgpu.atom.tma_partition(%arg2, %coord_15, %lay, %grouped_19, %grouped_20) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_4, !cute.coord_tensor<"(0,0)", "(((64,16),1,4)):(((1@1,1@0),0,16@0))">) -> (!memref_smem_f16_5, !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">)
      scf.if %15 {
        %16 = nvvm.elect.sync -> i1
        scf.if %16 {
          %22 = builtin.unrealized_conversion_cast %iter_9 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          %23 = nvvm.mbarrier.arrive.expect_tx %22, %c24576_i32 : !llvm.ptr<3>, i32 -> i64
        }
        %coord_24 = cute.make_coord() : () -> !cute.coord<"(_,0)">
        %slice = cute.slice(%res_smem_tensor, %coord_24) : !memref_smem_f16_3, !cute.coord<"(_,0)">
        %iter_25 = cute.get_iter(%slice) : !memref_smem_f16_6
        %lay_26 = cute.get_layout(%res_target_tensors) : !cute.coord_tensor<"(0,0)", "(((64,128),1)):(((1@0,1@1),0))">
        %lay_27 = cute.get_layout(%slice) : !memref_smem_f16_6
        %append = cute.append_to_rank<2> (%lay_26, %lay) : !cute.layout<"(((64,128),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %int_tuple_28 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_28) : (!cute.int_tuple<"(0,0)">) -> !cute.arith_tuple_iter<"(0,0)">
        %view_29 = cute.make_view(%int_tup_iter, %append) : !cute.coord_tensor<"(0,0)", "(((64,128),1),1):(((1@0,1@1),0),0)">
        %grouped_30 = cute.group_modes(%view_29) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,128),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,128),1),(1)):(((1@0,1@1),0),(0))">
        %append_31 = cute.append_to_rank<2> (%lay_27, %lay) : !cute.layout<"((8192,1)):((1,0))">, !cute.layout<"1:0">
        %view_32 = cute.make_view(%iter_25, %append_31) : !memref_smem_f16_3
        %grouped_33 = cute.group_modes(%view_32) <1, 2> : (!memref_smem_f16_3) -> !memref_smem_f16_7
        %17 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 131072, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,128):(1@1,1@0)">>
        %18 = cute_nvgpu.atom.set_value<tma_bar>(%17, %iter_9) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 131072, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,128):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%18, %grouped_30, %grouped_33) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 131072, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,128):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,128),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_7)
        %slice_34 = cute.slice(%res_smem_tensor_21, %coord_24) : !memref_smem_f16_5, !cute.coord<"(_,0)">
        %iter_35 = cute.get_iter(%slice_34) : !memref_smem_f16_8
        %lay_36 = cute.get_layout(%res_target_tensors_22) : !cute.coord_tensor<"(0,0)", "(((64,64),1)):(((1@0,1@1),0))">
        %lay_37 = cute.get_layout(%slice_34) : !memref_smem_f16_8
        %append_38 = cute.append_to_rank<2> (%lay_36, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %view_39 = cute.make_view(%int_tup_iter, %append_38) : !cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
        %grouped_40 = cute.group_modes(%view_39) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
        %append_41 = cute.append_to_rank<2> (%lay_37, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
        %view_42 = cute.make_view(%iter_35, %append_41) : !memref_smem_f16_5
        %grouped_43 = cute.group_modes(%view_42) <1, 2> : (!memref_smem_f16_5) -> !memref_smem_f16_9
        %19 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %20 = cute_nvgpu.atom.set_value<tma_bar>(%19, %iter_9) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%20, %grouped_40, %grouped_43) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_9)
        %21 = builtin.unrealized_conversion_cast %iter_9 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %21, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
      }
      %frg_A = cute.mma.make_fragment A (%arg5, %view) : (!mma_f16_f16_f32_128x64x16, !memref_smem_f16) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">
      %frg_B = cute.mma.make_fragment B (%arg5, %view_14) : (!mma_f16_f16_f32_128x64x16, !memref_smem_f16_1) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">
      %shape_23 = cute.make_shape() : () -> !cute.shape<"((128,64),1,1,2)">
      %frg_C = cute.mma.make_fragment C (%arg5, %shape_23) : (!mma_f16_f16_f32_128x64x16, !cute.shape<"((128,64),1,1,2)">) -> !memref_tmem_f32
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.tmem_load<f32, 32 DP, 32 bit, x64>
      scf.for %arg9 = %c0_i32 to %arg8 step %c1_i32  : i32 {
        %16 = arith.remsi %arg9, %c2_i32 : i32
        %17 = arith.floordivsi %arg9, %c2_i32 : i32
        %18 = arith.remsi %17, %c2_i32 : i32
        scf.if %15 {
          %int_tuple_49 = cute.make_int_tuple(%16) : (i32) -> !cute.int_tuple<"?">
          %ptr_50 = cute.add_offset(%iter_11, %int_tuple_49) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
          %26 = arith.subi %c1_i32, %18 : i32
          %27 = builtin.unrealized_conversion_cast %ptr_50 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.try_wait.parity %27, %26, %c10000000_i32 : !llvm.ptr<3>, i32, i32
          %tmem_ptr_51 = cute_nvgpu.arch.sm100.retrieve_tmem_ptr(%iter_4) : !cute.ptr<i32, smem, align<8>> -> !cute.ptr<f32, tmem, align<16>>
          %lay_52 = cute.get_layout(%frg_C) : !memref_tmem_f32
          %view_53 = cute.make_view(%tmem_ptr_51, %lay_52) : !memref_tmem_f32_1
          %28 = arith.subi %c1_i32, %16 : i32
          %coord_54 = cute.make_coord(%28) : (i32) -> !cute.coord<"(_,_,_,?)">
          %slice_55 = cute.slice(%view_53, %coord_54) : !memref_tmem_f32_1, !cute.coord<"(_,_,_,?)">
          %29 = cute_nvgpu.atom.set_value<accum_c>(%arg5, %false) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_56 = cute.make_coord() : () -> !cute.coord<"(_,_,0,0)">
          %slice_57 = cute.slice(%frg_A, %coord_56) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,0,0)">
          %slice_58 = cute.slice(%frg_B, %coord_56) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,0,0)">
          cute.gemm(%29, %slice_55, %slice_57, %slice_58, %slice_55) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %30 = cute_nvgpu.atom.set_value<accum_c>(%29, %true) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_59 = cute.make_coord() : () -> !cute.coord<"(_,_,1,0)">
          %slice_60 = cute.slice(%frg_A, %coord_59) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,1,0)">
          %slice_61 = cute.slice(%frg_B, %coord_59) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,1,0)">
          cute.gemm(%30, %slice_55, %slice_60, %slice_61, %slice_55) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %31 = cute_nvgpu.atom.set_value<accum_c>(%30, %true) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_62 = cute.make_coord() : () -> !cute.coord<"(_,_,2,0)">
          %slice_63 = cute.slice(%frg_A, %coord_62) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,2,0)">
          %slice_64 = cute.slice(%frg_B, %coord_62) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,2,0)">
          cute.gemm(%31, %slice_55, %slice_63, %slice_64, %slice_55) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %32 = cute_nvgpu.atom.set_value<accum_c>(%31, %true) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_65 = cute.make_coord() : () -> !cute.coord<"(_,_,3,0)">
          %slice_66 = cute.slice(%frg_A, %coord_65) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,3,0)">
          %slice_67 = cute.slice(%frg_B, %coord_65) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,3,0)">
          cute.gemm(%32, %slice_55, %slice_66, %slice_67, %slice_55) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %33 = nvvm.elect.sync -> i1
          scf.if %33 {
            %ptr_68 = cute.add_offset(%iter_10, %int_tuple_49) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
            %34 = builtin.unrealized_conversion_cast %ptr_68 : !cute.ptr<i64, smem> to !llvm.ptr<3>
            nvvm.tcgen05.commit %34 : !llvm.ptr<3>
          }
        }
        %int_tuple_24 = cute.make_int_tuple(%16) : (i32) -> !cute.int_tuple<"?">
        %ptr_25 = cute.add_offset(%iter_10, %int_tuple_24) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
        %19 = builtin.unrealized_conversion_cast %ptr_25 : !cute.ptr<i64, smem> to !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %19, %18, %c10000000_i32 : !llvm.ptr<3>, i32, i32
        %tmem_ptr = cute_nvgpu.arch.sm100.retrieve_tmem_ptr(%iter_4) : !cute.ptr<i32, smem, align<8>> -> !cute.ptr<f32, tmem, align<16>>
        %lay_26 = cute.get_layout(%frg_C) : !memref_tmem_f32
        %view_27 = cute.make_view(%tmem_ptr, %lay_26) : !memref_tmem_f32_1
        %20 = arith.subi %c1_i32, %16 : i32
        %coord_28 = cute.make_coord(%20) : (i32) -> !cute.coord<"(_,_,_,?)">
        %slice = cute.slice(%view_27, %coord_28) : !memref_tmem_f32_1, !cute.coord<"(_,_,_,?)">
        %21 = cute_nvgpu.atom.make_tmem_copy(%atom, %slice) : (!cute_nvgpu.atom.tmem_load<f32, 32 DP, 32 bit, x64>, !memref_tmem_f32_2) -> !copy_ldtm_32
        %coord_29 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
        %src_partitioned = cute.tiled.copy.partition_S(%21, %slice, %coord_29) : (!copy_ldtm_32, !memref_tmem_f32_2, !cute.coord<"?">) -> !memref_tmem_f32_3
        %iter_30 = cute.get_iter(%src_partitioned) : !memref_tmem_f32_3
        %coord_31 = cute.make_coord(%arg9) : (i32) -> !cute.coord<"(0,?)">
        %tiled_view_32 = cute.local_tile(%arg4, %tile, %coord_31) : (!memref_gmem_f32, !cute.tile<"[128:1;64:1]">, !cute.coord<"(0,?)">) -> !memref_gmem_f32_1
        %ptn_C = cute.tiled.mma.partition C (%arg5, %tiled_view_32, %coord_15) : (!mma_f16_f16_f32_128x64x16, !memref_gmem_f32_1, !cute.coord<"0">) -> !memref_gmem_f32_2
        %dst_partitioned = cute.tiled.copy.partition_D(%21, %ptn_C, %coord_29) : (!copy_ldtm_32, !memref_gmem_f32_2, !cute.coord<"?">) -> !memref_gmem_f32_3
        %lay_33 = cute.get_layout(%dst_partitioned) : !memref_gmem_f32_3
        %rmem = cute.memref.alloca() : !memref_rmem_f32
        %iter_34 = cute.get_iter(%rmem) : !memref_rmem_f32
        %lay_35 = cute.get_layout(%src_partitioned) : !memref_tmem_f32_3
        %lay_36 = cute.get_layout(%rmem) : !memref_rmem_f32
        %append = cute.append_to_rank<2> (%lay_35, %lay) : !cute.layout<"(((64,32),1),1,1,1):(((1,65536),0),0,0,0)">, !cute.layout<"1:0">
        %view_37 = cute.make_view(%iter_30, %append) : !memref_tmem_f32_3
        %grouped_38 = cute.group_modes(%view_37) <1, 4> : (!memref_tmem_f32_3) -> !memref_tmem_f32_4
        %append_39 = cute.append_to_rank<2> (%lay_36, %lay) : !cute.layout<"((64,1),1,1,1):((1,0),0,0,0)">, !cute.layout<"1:0">
        %view_40 = cute.make_view(%iter_34, %append_39) : !memref_rmem_f32
        %grouped_41 = cute.group_modes(%view_40) <1, 4> : (!memref_rmem_f32) -> !memref_rmem_f32_1
        cute.copy(%21, %grouped_38, %grouped_41) : (!copy_ldtm_32, !memref_tmem_f32_4, !memref_rmem_f32_1)
        nvvm.tcgen05.wait <load>
        %ptr_42 = cute.add_offset(%iter_11, %int_tuple_24) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
        %22 = builtin.unrealized_conversion_cast %ptr_42 : !cute.ptr<i64, smem> to !llvm.ptr<3>
        %23 = nvvm.mbarrier.arrive %22, %c1_i32 : !llvm.ptr<3> -> i64
        %rinv = cute.right_inverse(%lay_33) : (!cute.layout<"((64,1),1,1,1):((1,0),0,0,0)">) -> !cute.layout<"64:1">
        %24 = cute.composition(%lay_36, %rinv) : (!cute.layout<"((64,1),1,1,1):((1,0),0,0,0)">, !cute.layout<"64:1">) -> !cute.layout<"64:1">
        %coalesce = cute.coalesce(%24) : (!cute.layout<"64:1">) -> !cute.layout<"64:1">
        %25 = cute.composition(%rinv, %coalesce) : (!cute.layout<"64:1">, !cute.layout<"64:1">) -> !cute.layout<"64:1">
        %div = cute.logical_divide(%rmem, %25) : !memref_rmem_f32, !cute.layout<"64:1">
        %div_43 = cute.logical_divide(%dst_partitioned, %25) : !memref_gmem_f32_3, !cute.layout<"64:1">
        %shape_44 = cute.make_shape() : () -> !cute.shape<"4">
        %lay_45 = cute.make_layout(%shape_44) : !cute.layout<"4:1">
        %div_46 = cute.logical_divide(%div, %lay_45) : !memref_rmem_f32_2, !cute.layout<"4:1">
        %div_47 = cute.logical_divide(%div_43, %lay_45) : !memref_gmem_f32_4, !cute.layout<"4:1">
        %atom_48 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32, 128 b>
        cute.copy(%atom_48, %div_46, %div_47) : (!cute_nvgpu.atom.universal_copy<f32, 128 b>, !memref_rmem_f32_3, !memref_gmem_f32_5)
      }
      nvvm.barrier
      scf.if %15 {
        %tmem_ptr = cute_nvgpu.arch.sm100.retrieve_tmem_ptr(%iter_4) : !cute.ptr<i32, smem, align<8>> -> !cute.ptr<f32, tmem, align<16>>
        cute_nvgpu.arch.sm100.dealloc_tmem(%tmem_ptr, %c128_i32) [ cta_1] : !cute.ptr<f32, tmem, align<16>>, i32
      }
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat1612864641_FakeTensorFloat166464641_FakeTensorFloat32128div64div641__FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16_1, %arg2: !memref_gmem_f32, %arg3: i32, %arg4: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c232448_i64 = arith.constant 232448 : i64
    %0 = cute.static : !cute.layout<"((1,(1,1)),((64,16),(1,4))):((1@1,(0,0)),((1@0,1@1),(0,16@1)))">
    %1 = cute.static : !cute.layout<"((1,(1,1)),((128,16),(1,4))):((1@1,(0,0)),((1@0,1@1),(0,16@1)))">
    %2 = cute.static : !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,(1,1)):((64,1),0,16,(0,0))">
    %3 = cute.static : !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,(1,1)):((64,1),0,16,(0,0))">
    %c0_i32 = arith.constant 0 : i32
    %false = arith.constant false
    %cst = arith.constant dense<0> : vector<4xi32>
    %atom = cute.make_atom(%false, %false, %false, %cst) : (i1, i1, i1, vector<4xi32>) -> !cute_nvgpu.sm100.mma<128x64x16, num_cta = 1, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss, c_scale_exp = 0>
    %4 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_128x64x16
    %coord = cute.make_coord() : () -> !cute.coord<"((128,16),1,4,1)">
    %coalesce = cute.coalesce(%3, %coord) : (!cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,(1,1)):((64,1),0,16,(0,0))">, !cute.coord<"((128,16),1,4,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">
    %coord_0 = cute.make_coord() : () -> !cute.coord<"((64,16),1,4,1)">
    %coalesce_1 = cute.coalesce(%2, %coord_0) : (!cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,(1,1)):((64,1),0,16,(0,0))">, !cute.coord<"((64,16),1,4,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">
    %5 = cute.select<[0, 1, 2]> (%coalesce) : (!cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4):((64,1),0,16)">
    %6 = cute.get(%1) <{mode = [1]}> : !cute.layout<"((1,(1,1)),((128,16),(1,4))):((1@1,(0,0)),((1@0,1@1),(0,16@1)))"> -> !cute.layout<"((128,16),(1,4)):((1@0,1@1),(0,16@1))">
    %dice = cute.dice(%6, "(1,(1,1))") : (!cute.layout<"((128,16),(1,4)):((1@0,1@1),(0,16@1))">) -> !cute.layout<"((128,16),1,4):((1@0,1@1),0,16@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %5, %dice) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4):((64,1),0,16)">, !cute.layout<"((128,16),1,4):((1@0,1@1),0,16@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">)
    %7 = cute.select<[0, 1, 2]> (%coalesce_1) : (!cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4):((64,1),0,16)">
    %8 = cute.get(%0) <{mode = [1]}> : !cute.layout<"((1,(1,1)),((64,16),(1,4))):((1@1,(0,0)),((1@0,1@1),(0,16@1)))"> -> !cute.layout<"((64,16),(1,4)):((1@0,1@1),(0,16@1))">
    %dice_2 = cute.dice(%8, "(1,(1,1))") : (!cute.layout<"((64,16),(1,4)):((1@0,1@1),(0,16@1))">) -> !cute.layout<"((64,16),1,4):((1@0,1@1),0,16@1)">
    %non_exec_atom_3, %tma_tensor_4 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %7, %dice_2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4):((64,1),0,16)">, !cute.layout<"((64,16),1,4):((1@0,1@1),0,16@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %9 = cute.kernel_smem_size @kernels::@kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0 : i64
    %10 = arith.cmpi sgt, %9, %c232448_i64 : i64
    scf.if %10 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0' launch shared memory exceeds current GPU arch sm_100a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %9) : i64
    }
    %11 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %9, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg4) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%11] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%11] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %12 = cuda.launch_ex @kernels::@kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0<%11> (%non_exec_atom, %tma_tensor, %non_exec_atom_3, %tma_tensor_4, %arg2, %4, %coalesce, %coalesce_1, %arg3) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_128x64x16, !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">, !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">, i32) -> !cuda.result
    %13 = cuda.cast %12 : !cuda.result -> i32
    cuda.return_if_error %13 : i32
    return %c0_i32 : i32
  }
}

