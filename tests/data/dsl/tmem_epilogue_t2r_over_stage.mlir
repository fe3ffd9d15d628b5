// made by: python tests/dsl_tmem_kernel.py tests/data/dsl/tmem_epilogue_t2r_over_stage.mlir epilogue=tma epi_t2r_tile=stage (the CuTe DSL, CUTE_DSL_ARCH=sm_100a, CUTE_DSL_KEEP=ir)
!copy_ldtm_32 = !cute.tiled_copy<!cute_nvgpu.atom.tmem_load<f32, 32 DP, 32 bit, x32>, layout_copy_tv = <"((32,4),(32,32)):((0,1),(128,4))">, tiler_mn = <"[(4,32):(32,1);32:1]">>
!copy_simt = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f32>, layout_copy_tv = <"((32,4),(32,1)):((4,1),(128,0))">, tiler_mn = <"[(4,32):(32,1);32:1]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(128,64):(64,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(128,?{div=64}):(?{div=64},1)">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<32>, "((32,1),1,1):((1,0),0,0)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, align<32>, "((1,32),1,1):((0,1),0,0)">
!memref_rmem_f32_2 = !cute.memref<f32, rmem, align<32>, "((32,1),(1,1)):((1,0),(0,0))">
!memref_rmem_f32_3 = !cute.memref<f32, rmem, align<32>, "((1,32),(1,1)):((0,1),(0,0))">
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
!memref_smem_f32 = !cute.memref<f32, smem, align<1024>, S<3,4,3>, "((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">
!memref_smem_f32_1 = !cute.memref<f32, smem, align<128>, S<3,4,3>, "((1,32),1,1,(1,2)):((0,1),0,0,(0,4096))">
!memref_smem_f32_2 = !cute.memref<f32, smem, align<1024>, S<3,4,3>, "(((8,16),(32,1)),(1,2)):(((32,256),(1,0)),(0,4096))">
!memref_smem_f32_3 = !cute.memref<f32, smem, align<1024>, S<3,4,3>, "((4096,1),(1,2)):((1,0),(0,4096))">
!memref_smem_f32_4 = !cute.memref<f32, smem, align<128>, S<3,4,3>, "((1,32),1,1):((0,1),0,0)">
!memref_smem_f32_5 = !cute.memref<f32, smem, align<128>, S<3,4,3>, "((1,32),(1,1)):((0,1),(0,0))">
!memref_smem_f32_6 = !cute.memref<f32, smem, align<1024>, S<3,4,3>, "((4096,1)):((1,0))">
!memref_smem_f32_7 = !cute.memref<f32, smem, align<1024>, S<3,4,3>, "((4096,1),1):((1,0),0)">
!memref_smem_f32_8 = !cute.memref<f32, smem, align<1024>, S<3,4,3>, "((4096,1),(1)):((1,0),(0))">
!memref_smem_i8 = !cute.memref<i8, smem, align<1024>, "58368:1">
!memref_tmem_f32 = !cute.memref<f32, tmem, align<1>, "((128,64),1,1,2):((65536,1),0,0,64)">
!memref_tmem_f32_1 = !cute.memref<f32, tmem, align<16>, "((128,64),1,1,2):((65536,1),0,0,64)">
!memref_tmem_f32_2 = !cute.memref<f32, tmem, align<16>, "((128,64),1,1):((65536,1),0,0)">
!memref_tmem_f32_3 = !cute.memref<f32, tmem, align<16>, "(128,64):(65536,1)">
!memref_tmem_f32_4 = !cute.memref<f32, tmem, align<16>, "(128,32,1,2):(65536,1,0,32)">
!memref_tmem_f32_5 = !cute.memref<f32, tmem, align<16>, "(((32,32),1),1,1,1,2):(((1,65536),0),0,0,0,32)">
!memref_tmem_f32_6 = !cute.memref<f32, tmem, align<16>, "(((32,32),1),1,1,(1,2)):(((1,65536),0),0,0,(0,32))">
!memref_tmem_f32_7 = !cute.memref<f32, tmem, align<16>, "(((32,32),1),1,1):(((1,65536),0),0,0)">
!memref_tmem_f32_8 = !cute.memref<f32, tmem, align<16>, "(((32,32),1),(1,1)):(((1,65536),0),(0,0))">
!mma_f16_f16_f32_128x64x16 = !cute.tiled_mma<!cute_nvgpu.sm100.mma<128x64x16, num_cta = 1, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss, c_scale_exp = 0>, atom_layout_MNK = <"(1,1,1):(0,0,0)">, permutation_MNK = <"[_;_;_]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_128x64x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">, %arg8: i32, %arg9: !cute_nvgpu.atom.non_exec_tiled_tma_store<f32, copy_bits = 131072, tma_gbasis = <"(32,128):(1@1,1@0)">, tma_format = F32_RN> {cute_nvgpu.grid_constant}, %arg10: !cute.coord_tensor<"(0,0)", "(128,?{div=64}):(1@1,1@0)">, %arg11: !cute.composed_layout<"S<3,4,3> o 0 o ((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
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
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32, smem.struct_fields = ["loaded:8:0", "acc_full:16:8", "acc_empty:16:24", "tmem_base:4:40", "a:16384:1024", "b:8192:17408", "d:32768:25600"]} : !memref_smem_i8
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
      scf.for %arg12 = %c0_i32 to %arg8 step %c1_i32  : i32 {
        %int_tuple_24 = cute.make_int_tuple() : () -> !cute.int_tuple<"25600">
        %ptr_25 = cute.add_offset(%iter, %int_tuple_24) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"25600">) -> !cute.ptr<i8, smem, align<1024>>
        %16 = arith.remsi %arg12, %c2_i32 : i32
        %17 = arith.floordivsi %arg12, %c2_i32 : i32
        %18 = arith.remsi %17, %c2_i32 : i32
        scf.if %15 {
          %int_tuple_50 = cute.make_int_tuple(%16) : (i32) -> !cute.int_tuple<"?">
          %ptr_51 = cute.add_offset(%iter_11, %int_tuple_50) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
          %25 = arith.subi %c1_i32, %18 : i32
          %26 = builtin.unrealized_conversion_cast %ptr_51 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.try_wait.parity %26, %25, %c10000000_i32 : !llvm.ptr<3>, i32, i32
          %tmem_ptr_52 = cute_nvgpu.arch.sm100.retrieve_tmem_ptr(%iter_4) : !cute.ptr<i32, smem, align<8>> -> !cute.ptr<f32, tmem, align<16>>
          %lay_53 = cute.get_layout(%frg_C) : !memref_tmem_f32
          %view_54 = cute.make_view(%tmem_ptr_52, %lay_53) : !memref_tmem_f32_1
          %coord_55 = cute.make_coord(%16) : (i32) -> !cute.coord<"(_,_,_,?)">
          %slice_56 = cute.slice(%view_54, %coord_55) : !memref_tmem_f32_1, !cute.coord<"(_,_,_,?)">
          %27 = cute_nvgpu.atom.set_value<accum_c>(%arg5, %false) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_57 = cute.make_coord() : () -> !cute.coord<"(_,_,0,0)">
          %slice_58 = cute.slice(%frg_A, %coord_57) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,0,0)">
          %slice_59 = cute.slice(%frg_B, %coord_57) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,0,0)">
          cute.gemm(%27, %slice_56, %slice_58, %slice_59, %slice_56) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %28 = cute_nvgpu.atom.set_value<accum_c>(%27, %true) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_60 = cute.make_coord() : () -> !cute.coord<"(_,_,1,0)">
          %slice_61 = cute.slice(%frg_A, %coord_60) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,1,0)">
          %slice_62 = cute.slice(%frg_B, %coord_60) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,1,0)">
          cute.gemm(%28, %slice_56, %slice_61, %slice_62, %slice_56) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %29 = cute_nvgpu.atom.set_value<accum_c>(%28, %true) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_63 = cute.make_coord() : () -> !cute.coord<"(_,_,2,0)">
          %slice_64 = cute.slice(%frg_A, %coord_63) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,2,0)">
          %slice_65 = cute.slice(%frg_B, %coord_63) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,2,0)">
          cute.gemm(%29, %slice_56, %slice_64, %slice_65, %slice_56) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %30 = cute_nvgpu.atom.set_value<accum_c>(%29, %true) : (!mma_f16_f16_f32_128x64x16, i1)
          %coord_66 = cute.make_coord() : () -> !cute.coord<"(_,_,3,0)">
          %slice_67 = cute.slice(%frg_A, %coord_66) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,3,0)">
          %slice_68 = cute.slice(%frg_B, %coord_66) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,1):(0,0,2,0)">, !cute.coord<"(_,_,3,0)">
          cute.gemm(%30, %slice_56, %slice_67, %slice_68, %slice_56) : (!mma_f16_f16_f32_128x64x16, !memref_tmem_f32_2, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_tmem_f32_2)
          %31 = nvvm.elect.sync -> i1
          scf.if %31 {
            %ptr_69 = cute.add_offset(%iter_10, %int_tuple_50) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
            %32 = builtin.unrealized_conversion_cast %ptr_69 : !cute.ptr<i64, smem> to !llvm.ptr<3>
            nvvm.tcgen05.commit %32 : !llvm.ptr<3>
          }
        }
        %int_tuple_26 = cute.make_int_tuple(%16) : (i32) -> !cute.int_tuple<"?">
        %ptr_27 = cute.add_offset(%iter_10, %int_tuple_26) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
        %19 = builtin.unrealized_conversion_cast %ptr_27 : !cute.ptr<i64, smem> to !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %19, %18, %c10000000_i32 : !llvm.ptr<3>, i32, i32
        %tmem_ptr = cute_nvgpu.arch.sm100.retrieve_tmem_ptr(%iter_4) : !cute.ptr<i32, smem, align<8>> -> !cute.ptr<f32, tmem, align<16>>
        %lay_28 = cute.get_layout(%frg_C) : !memref_tmem_f32
        %view_29 = cute.make_view(%tmem_ptr, %lay_28) : !memref_tmem_f32_1
        %coord_30 = cute.make_coord(%16) : (i32) -> !cute.coord<"(_,_,_,?)">
        %slice = cute.slice(%view_29, %coord_30) : !memref_tmem_f32_1, !cute.coord<"(_,_,_,?)">
        %20 = cute.composed_get_outer(%arg11) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">) -> !cute.layout<"((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">
        %iter_31 = cute.recast_iter(%ptr_25) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f32, smem, align<1024>, S<3,4,3>>
        %view_32 = cute.make_view(%iter_31, %20) : !memref_smem_f32
        %coord_33 = cute.make_coord() : () -> !cute.coord<"((_,_),0,0)">
        %slice_34 = cute.slice(%slice, %coord_33) : !memref_tmem_f32_2, !cute.coord<"((_,_),0,0)">
        %tile_35 = cute.make_tile() : () -> !cute.tile<"[128:1;32:1]">
        %div = cute.flat_divide(%slice_34, %tile_35) : !memref_tmem_f32_3, !cute.tile<"[128:1;32:1]">
        %atom = cute.make_atom() : () -> !cute_nvgpu.atom.tmem_load<f32, 32 DP, 32 bit, x32>
        %21 = cute_nvgpu.atom.make_tmem_copy(%atom, %slice_34) : (!cute_nvgpu.atom.tmem_load<f32, 32 DP, 32 bit, x32>, !memref_tmem_f32_3) -> !copy_ldtm_32
        %coord_36 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
        %src_partitioned = cute.tiled.copy.partition_S(%21, %div, %coord_36) : (!copy_ldtm_32, !memref_tmem_f32_4, !cute.coord<"?">) -> !memref_tmem_f32_5
        %grouped_37 = cute.group_modes(%src_partitioned) <3, 5> : (!memref_tmem_f32_5) -> !memref_tmem_f32_6
        %coord_38 = cute.make_coord(%arg12) : (i32) -> !cute.coord<"(0,?)">
        %tiled_view_39 = cute.local_tile(%arg10, %tile, %coord_38) : (!cute.coord_tensor<"(0,0)", "(128,?{div=64}):(1@1,1@0)">, !cute.tile<"[128:1;64:1]">, !cute.coord<"(0,?)">) -> !cute.coord_tensor<"(?{div=64},0)", "(128,64):(1@1,1@0)">
        %div_40 = cute.flat_divide(%tiled_view_39, %tile_35) : !cute.coord_tensor<"(?{div=64},0)", "(128,64):(1@1,1@0)">, !cute.tile<"[128:1;32:1]">
        %rmem = cute.memref.alloca() : !memref_rmem_f32
        %iter_41 = cute.get_iter(%rmem) : !memref_rmem_f32
        %atom_42 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32>
        %22 = cute.make_tiled_copy(%atom_42) : !copy_simt
        %dst_partitioned = cute.tiled.copy.partition_D(%22, %view_32, %coord_36) : (!copy_simt, !memref_smem_f32, !cute.coord<"?">) -> !memref_smem_f32_1
        %retiled = cute.tiled.copy.retile(%22, %rmem) : (!copy_simt, !memref_rmem_f32) -> !memref_rmem_f32_1
        %iter_43 = cute.get_iter(%retiled) : !memref_rmem_f32_1
        %grouped_44 = cute.group_modes(%view_32) <0, 2> : (!memref_smem_f32) -> !memref_smem_f32_2
        %grouped_45 = cute.group_modes(%div_40) <0, 2> : (!cute.coord_tensor<"(?{div=64},0)", "(128,32,1,2):(1@1,1@0,0,32@0)">) -> !cute.coord_tensor<"(?{div=64},0)", "((128,32),1,2):((1@1,1@0),0,32@0)">
        %res_smem_tensor_46, %res_target_tensors_47 = cute_nvgpu.atom.tma_partition(%arg9, %coord_15, %lay, %grouped_44, %grouped_45) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f32, copy_bits = 131072, tma_gbasis = <"(32,128):(1@1,1@0)">, tma_format = F32_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f32_2, !cute.coord_tensor<"(?{div=64},0)", "((128,32),1,2):((1@1,1@0),0,32@0)">) -> (!memref_smem_f32_3, !cute.coord_tensor<"(?{div=64},0)", "(((32,128),1),1,2):(((1@0,1@1),0),0,32@0)">)
        %grouped_48 = cute.group_modes(%res_target_tensors_47) <1, 3> : (!cute.coord_tensor<"(?{div=64},0)", "(((32,128),1),1,2):(((1@0,1@1),0),0,32@0)">) -> !cute.coord_tensor<"(?{div=64},0)", "(((32,128),1),(1,2)):(((1@0,1@1),0),(0,32@0))">
        scf.for %arg13 = %c0_i32 to %c2_i32 step %c1_i32  : i32 {
          %coord_50 = cute.make_coord(%arg13) : (i32) -> !cute.coord<"(_,_,_,?)">
          %slice_51 = cute.slice(%grouped_37, %coord_50) : !memref_tmem_f32_6, !cute.coord<"(_,_,_,?)">
          %iter_52 = cute.get_iter(%slice_51) : !memref_tmem_f32_7
          %lay_53 = cute.get_layout(%slice_51) : !memref_tmem_f32_7
          %lay_54 = cute.get_layout(%rmem) : !memref_rmem_f32
          %append = cute.append_to_rank<2> (%lay_53, %lay) : !cute.layout<"(((32,32),1),1,1):(((1,65536),0),0,0)">, !cute.layout<"1:0">
          %view_55 = cute.make_view(%iter_52, %append) : !memref_tmem_f32_7
          %grouped_56 = cute.group_modes(%view_55) <1, 3> : (!memref_tmem_f32_7) -> !memref_tmem_f32_8
          %append_57 = cute.append_to_rank<2> (%lay_54, %lay) : !cute.layout<"((32,1),1,1):((1,0),0,0)">, !cute.layout<"1:0">
          %view_58 = cute.make_view(%iter_41, %append_57) : !memref_rmem_f32
          %grouped_59 = cute.group_modes(%view_58) <1, 3> : (!memref_rmem_f32) -> !memref_rmem_f32_2
          cute.copy(%21, %grouped_56, %grouped_59) : (!copy_ldtm_32, !memref_tmem_f32_8, !memref_rmem_f32_2)
          nvvm.tcgen05.wait <load>
          %25 = arith.remsi %arg13, %c2_i32 : i32
          %coord_60 = cute.make_coord(%25) : (i32) -> !cute.coord<"(_,_,_,?)">
          %slice_61 = cute.slice(%dst_partitioned, %coord_60) : !memref_smem_f32_1, !cute.coord<"(_,_,_,?)">
          %iter_62 = cute.get_iter(%slice_61) : !memref_smem_f32_4
          %lay_63 = cute.get_layout(%retiled) : !memref_rmem_f32_1
          %lay_64 = cute.get_layout(%slice_61) : !memref_smem_f32_4
          %append_65 = cute.append_to_rank<2> (%lay_63, %lay) : !cute.layout<"((1,32),1,1):((0,1),0,0)">, !cute.layout<"1:0">
          %view_66 = cute.make_view(%iter_43, %append_65) : !memref_rmem_f32_1
          %grouped_67 = cute.group_modes(%view_66) <1, 3> : (!memref_rmem_f32_1) -> !memref_rmem_f32_3
          %append_68 = cute.append_to_rank<2> (%lay_64, %lay) : !cute.layout<"((1,32),1,1):((0,1),0,0)">, !cute.layout<"1:0">
          %view_69 = cute.make_view(%iter_62, %append_68) : !memref_smem_f32_4
          %grouped_70 = cute.group_modes(%view_69) <1, 3> : (!memref_smem_f32_4) -> !memref_smem_f32_5
          cute.copy(%22, %grouped_67, %grouped_70) : (!copy_simt, !memref_rmem_f32_3, !memref_smem_f32_5)
          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
          nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
          scf.if %15 {
            %coord_71 = cute.make_coord(%25) : (i32) -> !cute.coord<"(_,?)">
            %slice_72 = cute.slice(%res_smem_tensor_46, %coord_71) : !memref_smem_f32_3, !cute.coord<"(_,?)">
            %iter_73 = cute.get_iter(%slice_72) : !memref_smem_f32_6
            %coord_74 = cute.make_coord(%arg13) : (i32) -> !cute.coord<"(_,?)">
            %slice_75 = cute.slice(%grouped_48, %coord_74) : !cute.coord_tensor<"(?{div=64},0)", "(((32,128),1),(1,2)):(((1@0,1@1),0),(0,32@0))">, !cute.coord<"(_,?)">
            %iter_76 = cute.get_iter(%slice_75) : !cute.coord_tensor<"(?{div=32},0)", "(((32,128),1)):(((1@0,1@1),0))">
            %tup = cute.deref_arith_tuple_iter(%iter_76) : !cute.arith_tuple_iter<"(?{div=32},0)">
            %e0, %e1 = cute.get_leaves(%tup) : !cute.int_tuple<"(?{div=32},0)">
            %lay_77 = cute.get_layout(%slice_72) : !memref_smem_f32_6
            %lay_78 = cute.get_layout(%slice_75) : !cute.coord_tensor<"(?{div=32},0)", "(((32,128),1)):(((1@0,1@1),0))">
            %append_79 = cute.append_to_rank<2> (%lay_77, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
            %view_80 = cute.make_view(%iter_73, %append_79) : !memref_smem_f32_7
            %grouped_81 = cute.group_modes(%view_80) <1, 2> : (!memref_smem_f32_7) -> !memref_smem_f32_8
            %append_82 = cute.append_to_rank<2> (%lay_78, %lay) : !cute.layout<"(((32,128),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
            %int_tuple_83 = cute.make_int_tuple(%e0) : (!cute.int_tuple<"?{div=32}">) -> !cute.int_tuple<"(?{div=32},0)">
            %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_83) : (!cute.int_tuple<"(?{div=32},0)">) -> !cute.arith_tuple_iter<"(?{div=32},0)">
            %view_84 = cute.make_view(%int_tup_iter, %append_82) : !cute.coord_tensor<"(?{div=32},0)", "(((32,128),1),1):(((1@0,1@1),0),0)">
            %grouped_85 = cute.group_modes(%view_84) <1, 2> : (!cute.coord_tensor<"(?{div=32},0)", "(((32,128),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(?{div=32},0)", "(((32,128),1),(1)):(((1@0,1@1),0),(0))">
            %26 = cute_nvgpu.atom.make_exec_tma(%arg9) : (!cute_nvgpu.atom.non_exec_tiled_tma_store<f32, copy_bits = 131072, tma_gbasis = <"(32,128):(1@1,1@0)">, tma_format = F32_RN>) -> !cute_nvgpu.atom.tma_store<f32, copy_bits = 131072, mode = tiled, g_stride = <"()"> tma_gbasis = <"(32,128):(1@1,1@0)">>
            cute.copy(%26, %grouped_81, %grouped_85) : (!cute_nvgpu.atom.tma_store<f32, copy_bits = 131072, mode = tiled, g_stride = <"()"> tma_gbasis = <"(32,128):(1@1,1@0)">>, !memref_smem_f32_8, !cute.coord_tensor<"(?{div=32},0)", "(((32,128),1),(1)):(((1@0,1@1),0),(0))">)
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 1 {read}
          }
          nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
        }
        %ptr_49 = cute.add_offset(%iter_11, %int_tuple_26) : (!cute.ptr<i64, smem>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
        %23 = builtin.unrealized_conversion_cast %ptr_49 : !cute.ptr<i64, smem> to !llvm.ptr<3>
        %24 = nvvm.mbarrier.arrive %23, %c1_i32 : !llvm.ptr<3> -> i64
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
    %4 = cute.static : !cute.swizzle<"S<3,4,3>">
    %c0_i32 = arith.constant 0 : i32
    %false = arith.constant false
    %cst = arith.constant dense<0> : vector<4xi32>
    %atom = cute.make_atom(%false, %false, %false, %cst) : (i1, i1, i1, vector<4xi32>) -> !cute_nvgpu.sm100.mma<128x64x16, num_cta = 1, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss, c_scale_exp = 0>
    %5 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_128x64x16
    %coord = cute.make_coord() : () -> !cute.coord<"((128,16),1,4,1)">
    %coalesce = cute.coalesce(%3, %coord) : (!cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,(1,1)):((64,1),0,16,(0,0))">, !cute.coord<"((128,16),1,4,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">
    %coord_0 = cute.make_coord() : () -> !cute.coord<"((64,16),1,4,1)">
    %coalesce_1 = cute.coalesce(%2, %coord_0) : (!cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,(1,1)):((64,1),0,16,(0,0))">, !cute.coord<"((64,16),1,4,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">
    %6 = cute.select<[0, 1, 2]> (%coalesce) : (!cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4):((64,1),0,16)">
    %7 = cute.get(%1) <{mode = [1]}> : !cute.layout<"((1,(1,1)),((128,16),(1,4))):((1@1,(0,0)),((1@0,1@1),(0,16@1)))"> -> !cute.layout<"((128,16),(1,4)):((1@0,1@1),(0,16@1))">
    %dice = cute.dice(%7, "(1,(1,1))") : (!cute.layout<"((128,16),(1,4)):((1@0,1@1),(0,16@1))">) -> !cute.layout<"((128,16),1,4):((1@0,1@1),0,16@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %6, %dice) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4):((64,1),0,16)">, !cute.layout<"((128,16),1,4):((1@0,1@1),0,16@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">)
    %8 = cute.select<[0, 1, 2]> (%coalesce_1) : (!cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4):((64,1),0,16)">
    %9 = cute.get(%0) <{mode = [1]}> : !cute.layout<"((1,(1,1)),((64,16),(1,4))):((1@1,(0,0)),((1@0,1@1),(0,16@1)))"> -> !cute.layout<"((64,16),(1,4)):((1@0,1@1),(0,16@1))">
    %dice_2 = cute.dice(%9, "(1,(1,1))") : (!cute.layout<"((64,16),(1,4)):((1@0,1@1),(0,16@1))">) -> !cute.layout<"((64,16),1,4):((1@0,1@1),0,16@1)">
    %non_exec_atom_3, %tma_tensor_4 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %8, %dice_2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4):((64,1),0,16)">, !cute.layout<"((64,16),1,4):((1@0,1@1),0,16@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %shape = cute.make_shape() : () -> !cute.shape<"(8,32)">
    %stride = cute.make_stride() : () -> !cute.stride<"(32,1)">
    %lay = cute.make_layout(%shape, %stride) : !cute.layout<"(8,32):(32,1)">
    %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"0">
    %lay_5 = cute.make_composed_layout(%4, %int_tuple, %lay) : !cute.composed_layout<"S<3,4,3> o 0 o (8,32):(32,1)">
    %shape_6 = cute.make_shape() : () -> !cute.shape<"(128,32,2)">
    %int_tuple_7 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1,2)">
    %tile_to_shape = cute.tile_to_shape(%lay_5, %shape_6, %int_tuple_7) : (!cute.composed_layout<"S<3,4,3> o 0 o (8,32):(32,1)">, !cute.shape<"(128,32,2)">, !cute.int_tuple<"(0,1,2)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">
    %coord_8 = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
    %slice = cute.slice(%tile_to_shape, %coord_8) : !cute.composed_layout<"S<3,4,3> o 0 o ((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">, !cute.coord<"(_,_,0)">
    %lay_9 = cute.get_layout(%arg2) : !memref_gmem_f32
    %10 = cute.get_shape(%lay_9) : (!cute.layout<"(128,?{div=64}):(?{div=64},1)">) -> !cute.shape<"(128,?{div=64})">
    %e0, %e1 = cute.get_leaves(%10) : !cute.shape<"(128,?{div=64})">
    %itup = cute.to_int_tuple(%e1) : !cute.shape<"?{div=64}"> to !cute.int_tuple<"?{div=64}">
    %shape_10 = cute.make_shape(%itup) : (!cute.int_tuple<"?{div=64}">) -> !cute.shape<"(128,?{div=64})">
    %11 = cute.make_identity_layout(%shape_10) : !cute.layout<"(128,?{div=64}):(1@0,1@1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[128:1;32:1]">
    %12 = cute.composition(%11, %tile) : (!cute.layout<"(128,?{div=64}):(1@0,1@1)">, !cute.tile<"[128:1;32:1]">) -> !cute.layout<"(128,32):(1@0,1@1)">
    %non_exec_atom_11, %tma_tensor_12 = cute_nvgpu.atom.make_non_exec_tiled_tma_store(%arg2, %slice, %12) : (!memref_gmem_f32, !cute.composed_layout<"S<3,4,3> o 0 o ((8,16),(32,1)):((32,256),(1,0))">, !cute.layout<"(128,32):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_store<f32, copy_bits = 131072, tma_gbasis = <"(32,128):(1@1,1@0)">, tma_format = F32_RN>, !cute.coord_tensor<"(0,0)", "(128,?{div=64}):(1@1,1@0)">)
    %13 = cute.kernel_smem_size @kernels::@kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0 : i64
    %14 = arith.cmpi sgt, %13, %c232448_i64 : i64
    scf.if %14 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0' launch shared memory exceeds current GPU arch sm_100a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %13) : i64
    }
    %15 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %13, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg4) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%15] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%15] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %16 = cuda.launch_ex @kernels::@kernel_cutlass_tmem_kernel_CopyAtom_ThrID10_TVLayoutSrc1819201_TVLayoutDst1819201_Valuetypef16_tensor00o128641110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tenso_0<%15> (%non_exec_atom, %tma_tensor, %non_exec_atom_3, %tma_tensor_4, %arg2, %5, %coalesce, %coalesce_1, %arg3, %non_exec_atom_11, %tma_tensor_12, %tile_to_shape) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 131072, tma_gbasis = <"(64,128):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(128,64):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_128x64x16, !cute.composed_layout<"S<3,4,3> o 0 o ((128,16),1,4,1):((64,1),0,16,0)">, !cute.composed_layout<"S<3,4,3> o 0 o ((64,16),1,4,1):((64,1),0,16,0)">, i32, !cute_nvgpu.atom.non_exec_tiled_tma_store<f32, copy_bits = 131072, tma_gbasis = <"(32,128):(1@1,1@0)">, tma_format = F32_RN>, !cute.coord_tensor<"(0,0)", "(128,?{div=64}):(1@1,1@0)">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))">) -> !cuda.result
    %17 = cuda.cast %16 : !cuda.result -> i32
    cuda.return_if_error %17 : i32
    return %c0_i32 : i32
  }
}

