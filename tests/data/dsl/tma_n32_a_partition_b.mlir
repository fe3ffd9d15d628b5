// made by: python tests/dsl_tma_kernel.py tests/data/dsl/tma_n32_a_partition_b.mlir tile_n=32 a_atom=partition_b (the CuTe DSL, CUTE_DSL_ARCH=sm_90a, CUTE_DSL_KEEP=ir)
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(32,64):(72,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(64,32):(32,1)">
!memref_gmem_f32_1 = !cute.memref<f32, gmem, align<8>, "((2,2,4),1,1):((1,256,8),0,0)">
!memref_gmem_f32_2 = !cute.memref<f32, gmem, align<8>, "(2,(2,4)):(1,(256,8))">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<32>, "((2,2,4),1,1):((1,2,4),0,0)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, align<32>, "(2,8):(1,2)">
!memref_smem_f16 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8,8),(64,1)):((64,512),(1,0))">
!memref_smem_f16_1 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8,4),(64,1)):((64,512),(1,0))">
!memref_smem_f16_2 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((8,8),(64,1))):(((64,512),(1,0)))">
!memref_smem_f16_3 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((2048,2)):((1,2048))">
!memref_smem_f16_4 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((8,4),(64,1))):(((64,512),(1,0)))">
!memref_smem_f16_5 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((2048,1)):((1,0))">
!memref_smem_f16_6 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((2048,2),1):((1,2048),0)">
!memref_smem_f16_7 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((2048,2),(1)):((1,2048),(0))">
!memref_smem_f16_8 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((2048,1),1):((1,0),0)">
!memref_smem_f16_9 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((2048,1),(1)):((1,0),(0))">
!memref_smem_f16_10 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((64,16),1,4):((64,1),0,16)">
!memref_smem_f16_11 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((32,16),1,4):((64,1),0,16)">
!memref_smem_i8 = !cute.memref<i8, smem, align<1024>, "13312:1">
!mma_f16_f16_f32_64x32x16 = !cute.tiled_mma<!cute_nvgpu.sm90.mma<64x32x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>, atom_layout_MNK = <"(1,1,1):(0,0,0)">, permutation_MNK = <"[_;_;_]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1204801_TVLayoutDst1204801_Valuetypef16_t_0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 32768, tma_gbasis = <"(64,32):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(32,64):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_64x32x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">, %arg8: !cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %true = arith.constant true
      %false = arith.constant false
      %c10000000_i32 = arith.constant 10000000 : i32
      %c12288_i32 = arith.constant 12288 : i32
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
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32, smem.struct_fields = ["full:8:0", "a:8192:1024", "b:4096:9216"]} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"1024">
      %ptr = cute.add_offset(%iter, %int_tuple) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"1024">) -> !cute.ptr<i8, smem, align<1024>>
      %int_tuple_0 = cute.make_int_tuple() : () -> !cute.int_tuple<"9216">
      %ptr_1 = cute.add_offset(%iter, %int_tuple_0) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"9216">) -> !cute.ptr<i8, smem, align<1024>>
      %iter_2 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<i64, smem, align<1024>>
      %13 = cute.composed_get_outer(%arg6) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,8),(64,1)):((64,512),(1,0))">
      %iter_3 = cute.recast_iter(%ptr) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view = cute.make_view(%iter_3, %13) : !memref_smem_f16
      %14 = cute.composed_get_outer(%arg7) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,4),(64,1)):((64,512),(1,0))">
      %iter_4 = cute.recast_iter(%ptr_1) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view_5 = cute.make_view(%iter_4, %14) : !memref_smem_f16_1
      %15 = cute.composed_get_outer(%arg8) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">) -> !cute.layout<"((8,4),(64,1)):((64,512),(1,0))">
      %view_6 = cute.make_view(%iter_4, %15) : !memref_smem_f16_1
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
      %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
      %coord = cute.make_coord() : () -> !cute.coord<"(0,0)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">
      %tile_7 = cute.make_tile() : () -> !cute.tile<"[32:1;64:1]">
      %tiled_view_8 = cute.local_tile(%arg3, %tile_7, %coord) : (!cute.coord_tensor<"(0,0)", "(32,64):(1@1,1@0)">, !cute.tile<"[32:1;64:1]">, !cute.coord<"(0,0)">) -> !cute.coord_tensor<"(0,0)", "(32,64):(1@1,1@0)">
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_2
      %grouped_9 = cute.group_modes(%tiled_view) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">
      %coord_10 = cute.make_coord() : () -> !cute.coord<"0">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg2, %coord_10, %lay, %grouped, %grouped_9) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 32768, tma_gbasis = <"(64,32):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "((64,64)):((1@1,1@0))">) -> (!memref_smem_f16_3, !cute.coord_tensor<"(0,0)", "(((64,32),2)):(((1@0,1@1),32@1))">)
      %iter_11 = cute.get_iter(%res_smem_tensor) : !memref_smem_f16_3
      %grouped_12 = cute.group_modes(%view_6) <0, 2> : (!memref_smem_f16_1) -> !memref_smem_f16_4
      %grouped_13 = cute.group_modes(%tiled_view_8) <0, 2> : (!cute.coord_tensor<"(0,0)", "(32,64):(1@1,1@0)">) -> !cute.coord_tensor<"(0,0)", "((32,64)):((1@1,1@0))">
      %res_smem_tensor_14, %res_target_tensors_15 = cute_nvgpu.atom.tma_partition(%arg2, %coord_10, %lay, %grouped_12, %grouped_13) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 32768, tma_gbasis = <"(64,32):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_4, !cute.coord_tensor<"(0,0)", "((32,64)):((1@1,1@0))">) -> (!memref_smem_f16_5, !cute.coord_tensor<"(0,0)", "(((64,32),1)):(((1@0,1@1),0))">)
      %iter_16 = cute.get_iter(%res_smem_tensor_14) : !memref_smem_f16_5
      scf.if %16 {
        %24 = nvvm.elect.sync -> i1
        scf.if %24 {
          %29 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          %30 = nvvm.mbarrier.arrive.expect_tx %29, %c12288_i32 : !llvm.ptr<3>, i32 -> i64
        }
        %lay_36 = cute.get_layout(%res_target_tensors) : !cute.coord_tensor<"(0,0)", "(((64,32),2)):(((1@0,1@1),32@1))">
        %lay_37 = cute.get_layout(%res_smem_tensor) : !memref_smem_f16_3
        %append = cute.append_to_rank<2> (%lay_36, %lay) : !cute.layout<"(((64,32),2)):(((1@0,1@1),32@1))">, !cute.layout<"1:0">
        %int_tuple_38 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,0)">
        %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_38) : (!cute.int_tuple<"(0,0)">) -> !cute.arith_tuple_iter<"(0,0)">
        %view_39 = cute.make_view(%int_tup_iter, %append) : !cute.coord_tensor<"(0,0)", "(((64,32),2),1):(((1@0,1@1),32@1),0)">
        %grouped_40 = cute.group_modes(%view_39) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,32),2),1):(((1@0,1@1),32@1),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,32),2),(1)):(((1@0,1@1),32@1),(0))">
        %append_41 = cute.append_to_rank<2> (%lay_37, %lay) : !cute.layout<"((2048,2)):((1,2048))">, !cute.layout<"1:0">
        %view_42 = cute.make_view(%iter_11, %append_41) : !memref_smem_f16_6
        %grouped_43 = cute.group_modes(%view_42) <1, 2> : (!memref_smem_f16_6) -> !memref_smem_f16_7
        %25 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
        %26 = cute_nvgpu.atom.set_value<tma_bar>(%25, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%26, %grouped_40, %grouped_43) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,32),2),(1)):(((1@0,1@1),32@1),(0))">, !memref_smem_f16_7)
        %lay_44 = cute.get_layout(%res_target_tensors_15) : !cute.coord_tensor<"(0,0)", "(((64,32),1)):(((1@0,1@1),0))">
        %lay_45 = cute.get_layout(%res_smem_tensor_14) : !memref_smem_f16_5
        %append_46 = cute.append_to_rank<2> (%lay_44, %lay) : !cute.layout<"(((64,32),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
        %view_47 = cute.make_view(%int_tup_iter, %append_46) : !cute.coord_tensor<"(0,0)", "(((64,32),1),1):(((1@0,1@1),0),0)">
        %grouped_48 = cute.group_modes(%view_47) <1, 2> : (!cute.coord_tensor<"(0,0)", "(((64,32),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(0,0)", "(((64,32),1),(1)):(((1@0,1@1),0),(0))">
        %append_49 = cute.append_to_rank<2> (%lay_45, %lay) : !cute.layout<"((2048,1)):((1,0))">, !cute.layout<"1:0">
        %view_50 = cute.make_view(%iter_16, %append_49) : !memref_smem_f16_8
        %grouped_51 = cute.group_modes(%view_50) <1, 2> : (!memref_smem_f16_8) -> !memref_smem_f16_9
        %27 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 32768, tma_gbasis = <"(64,32):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 32768, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,32):(1@1,1@0)">>
        %28 = cute_nvgpu.atom.set_value<tma_bar>(%27, %iter_2) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 32768, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,32):(1@1,1@0)">>, !cute.ptr<i64, smem, align<1024>>)
        cute.copy(%28, %grouped_48, %grouped_51) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 32768, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,32):(1@1,1@0)">>, !cute.coord_tensor<"(0,0)", "(((64,32),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_9)
      }
      %17 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %17, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
      %coord_17 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %view, %coord_17) : (!mma_f16_f16_f32_64x32x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_10
      %frg_A = cute.mma.make_fragment A (%arg5, %ptn_A) : (!mma_f16_f16_f32_64x32x16, !memref_smem_f16_10) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">
      %ptn_B = cute.tiled.mma.partition B (%arg5, %view_5, %coord_17) : (!mma_f16_f16_f32_64x32x16, !memref_smem_f16_1, !cute.coord<"?">) -> !memref_smem_f16_11
      %frg_B = cute.mma.make_fragment B (%arg5, %ptn_B) : (!mma_f16_f16_f32_64x32x16, !memref_smem_f16_11) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">
      %ptn_C = cute.tiled.mma.partition C (%arg5, %arg4, %coord_17) : (!mma_f16_f16_f32_64x32x16, !memref_gmem_f32, !cute.coord<"?">) -> !memref_gmem_f32_1
      %lay_18 = cute.get_layout(%ptn_C) : !memref_gmem_f32_1
      %rmem = cute.memref.alloca() : !memref_rmem_f32
      %18 = cute_nvgpu.atom.set_value<accum_c>(%arg5, %false) : (!mma_f16_f16_f32_64x32x16, i1)
      nvvm.wgmma.fence.aligned
      %coord_19 = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
      %slice = cute.slice(%frg_A, %coord_19) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,0)">
      %slice_20 = cute.slice(%frg_B, %coord_19) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,0)">
      %lay_21 = cute.get_layout(%rmem) : !memref_rmem_f32
      cute.gemm(%18, %rmem, %slice, %slice_20, %rmem) : (!mma_f16_f16_f32_64x32x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      %19 = cute_nvgpu.atom.set_value<accum_c>(%18, %true) : (!mma_f16_f16_f32_64x32x16, i1)
      %coord_22 = cute.make_coord() : () -> !cute.coord<"(_,_,1)">
      %slice_23 = cute.slice(%frg_A, %coord_22) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,1)">
      %slice_24 = cute.slice(%frg_B, %coord_22) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,1)">
      cute.gemm(%19, %rmem, %slice_23, %slice_24, %rmem) : (!mma_f16_f16_f32_64x32x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      %20 = cute_nvgpu.atom.set_value<accum_c>(%19, %true) : (!mma_f16_f16_f32_64x32x16, i1)
      %coord_25 = cute.make_coord() : () -> !cute.coord<"(_,_,2)">
      %slice_26 = cute.slice(%frg_A, %coord_25) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,2)">
      %slice_27 = cute.slice(%frg_B, %coord_25) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,2)">
      cute.gemm(%20, %rmem, %slice_26, %slice_27, %rmem) : (!mma_f16_f16_f32_64x32x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      %21 = cute_nvgpu.atom.set_value<accum_c>(%20, %true) : (!mma_f16_f16_f32_64x32x16, i1)
      %coord_28 = cute.make_coord() : () -> !cute.coord<"(_,_,3)">
      %slice_29 = cute.slice(%frg_A, %coord_28) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,3)">
      %slice_30 = cute.slice(%frg_B, %coord_28) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4):(0,0,2)">, !cute.coord<"(_,_,3)">
      cute.gemm(%21, %rmem, %slice_29, %slice_30, %rmem) : (!mma_f16_f16_f32_64x32x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %rinv = cute.right_inverse(%lay_18) : (!cute.layout<"((2,2,4),1,1):((1,256,8),0,0)">) -> !cute.layout<"2:1">
      %22 = cute.composition(%lay_21, %rinv) : (!cute.layout<"((2,2,4),1,1):((1,2,4),0,0)">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %coalesce = cute.coalesce(%22) : (!cute.layout<"2:1">) -> !cute.layout<"2:1">
      %23 = cute.composition(%rinv, %coalesce) : (!cute.layout<"2:1">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %div = cute.logical_divide(%rmem, %23) : !memref_rmem_f32, !cute.layout<"2:1">
      %div_31 = cute.logical_divide(%ptn_C, %23) : !memref_gmem_f32_1, !cute.layout<"2:1">
      %shape_32 = cute.make_shape() : () -> !cute.shape<"2">
      %lay_33 = cute.make_layout(%shape_32) : !cute.layout<"2:1">
      %div_34 = cute.logical_divide(%div, %lay_33) : !memref_rmem_f32_1, !cute.layout<"2:1">
      %div_35 = cute.logical_divide(%div_31, %lay_33) : !memref_gmem_f32_2, !cute.layout<"2:1">
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32, 64 b>
      cute.copy(%atom, %div_34, %div_35) : (!cute_nvgpu.atom.universal_copy<f32, 64 b>, !memref_rmem_f32_1, !memref_gmem_f32_2)
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat166464641_FakeTensorFloat163264721_FakeTensorFloat326432321_FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16_1, %arg2: !memref_gmem_f32, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c232448_i64 = arith.constant 232448 : i64
    %false = arith.constant false
    %0 = cute.static : !cute.swizzle<"S<3,4,3>">
    %shape = cute.make_shape() : () -> !cute.shape<"(8,64)">
    %stride = cute.make_stride() : () -> !cute.stride<"(64,1)">
    %lay = cute.make_layout(%shape, %stride) : !cute.layout<"(8,64):(64,1)">
    %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"0">
    %lay_0 = cute.make_composed_layout(%0, %int_tuple, %lay) : !cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">
    %shape_1 = cute.make_shape() : () -> !cute.shape<"(64,64)">
    %int_tuple_2 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1)">
    %tile_to_shape = cute.tile_to_shape(%lay_0, %shape_1, %int_tuple_2) : (!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">, !cute.shape<"(64,64)">, !cute.int_tuple<"(0,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">
    %shape_3 = cute.make_shape() : () -> !cute.shape<"(32,64)">
    %tile_to_shape_4 = cute.tile_to_shape(%lay_0, %shape_3, %int_tuple_2) : (!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">, !cute.shape<"(32,64)">, !cute.int_tuple<"(0,1)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">
    %1 = cute.make_identity_layout(%shape_1) : !cute.layout<"(64,64):(1@0,1@1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
    %2 = cute.composition(%1, %tile) : (!cute.layout<"(64,64):(1@0,1@1)">, !cute.tile<"[64:1;64:1]">) -> !cute.layout<"(64,64):(1@0,1@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %tile_to_shape, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">)
    %3 = cute.make_identity_layout(%shape_3) : !cute.layout<"(32,64):(1@0,1@1)">
    %tile_5 = cute.make_tile() : () -> !cute.tile<"[32:1;64:1]">
    %4 = cute.composition(%3, %tile_5) : (!cute.layout<"(32,64):(1@0,1@1)">, !cute.tile<"[32:1;64:1]">) -> !cute.layout<"(32,64):(1@0,1@1)">
    %non_exec_atom_6, %tma_tensor_7 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %tile_to_shape_4, %4) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">, !cute.layout<"(32,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 32768, tma_gbasis = <"(64,32):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(32,64):(1@1,1@0)">)
    %atom = cute.make_atom(%false) : (i1) -> !cute_nvgpu.sm90.mma<64x32x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
    %5 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_64x32x16
    %6 = cute.kernel_smem_size @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1204801_TVLayoutDst1204801_Valuetypef16_t_0 : i64
    %7 = arith.cmpi sgt, %6, %c232448_i64 : i64
    scf.if %7 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1204801_TVLayoutDst1204801_Valuetypef16_t_0' launch shared memory exceeds current GPU arch sm_90a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %6) : i64
    }
    %8 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %6, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%8] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%8] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %9 = cuda.launch_ex @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o64641110_CopyAtom_ThrID10_TVLayoutSrc1204801_TVLayoutDst1204801_Valuetypef16_t_0<%8> (%non_exec_atom, %tma_tensor, %non_exec_atom_6, %tma_tensor_7, %arg2, %5, %tile_to_shape, %tile_to_shape_4, %tile_to_shape_4) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,64):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 32768, tma_gbasis = <"(64,32):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(32,64):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_64x32x16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))">) -> !cuda.result
    %10 = cuda.cast %9 : !cuda.result -> i32
    cuda.return_if_error %10 : i32
    return %c0_i32 : i32
  }
}

