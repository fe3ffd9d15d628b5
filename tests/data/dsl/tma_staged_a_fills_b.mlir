// made by: python tests/dsl_tma_kernel.py tests/data/dsl/tma_staged_a_fills_b.mlir stages=2 a_fills=b (the CuTe DSL, CUTE_DSL_ARCH=sm_90a, CUTE_DSL_KEEP=ir)
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(64,128):(128,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(64,128):(136,1)">
!memref_gmem_f32 = !cute.memref<f32, gmem, align<16>, "(64,64):(64,1)">
!memref_gmem_f32_1 = !cute.memref<f32, gmem, align<8>, "((2,2,8),1,1):((1,512,8),0,0)">
!memref_gmem_f32_2 = !cute.memref<f32, gmem, align<8>, "(2,(2,8)):(1,(512,8))">
!memref_rmem_f32 = !cute.memref<f32, rmem, align<32>, "((2,2,8),1,1):((1,2,4),0,0)">
!memref_rmem_f32_1 = !cute.memref<f32, rmem, align<32>, "(2,16):(1,2)">
!memref_smem_f16 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">
!memref_smem_f16_1 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "(((8,8),(64,1)),(1,2)):(((64,512),(1,0)),(0,4096))">
!memref_smem_f16_2 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),(1,2)):((1,0),(0,4096))">
!memref_smem_f16_3 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((64,16),1,4,(1,2)):((64,1),0,16,(0,4096))">
!memref_smem_f16_4 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1)):((1,0))">
!memref_smem_f16_5 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),1):((1,0),0)">
!memref_smem_f16_6 = !cute.memref<f16, smem, align<1024>, S<3,4,3>, "((4096,1),(1)):((1,0),(0))">
!memref_smem_i8 = !cute.memref<i8, smem, align<1024>, "33792:1">
!mma_f16_f16_f32_64x64x16 = !cute.tiled_mma<!cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>, atom_layout_MNK = <"(1,1,1):(0,0,0)">, permutation_MNK = <"[_;_;_]">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o641281110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0(%arg0: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg1: !cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">, %arg2: !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN> {cute_nvgpu.grid_constant}, %arg3: !cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">, %arg4: !memref_gmem_f32, %arg5: !mma_f16_f16_f32_64x64x16, %arg6: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">, %arg7: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">, %arg8: !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 1, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %true = arith.constant true
      %c10000000_i32 = arith.constant 10000000 : i32
      %c16384_i32 = arith.constant 16384 : i32
      %c2_i32 = arith.constant 2 : i32
      %false = arith.constant false
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
      %smem = cute.memref.alloca() {smem.partition_id = 1 : i32, smem.struct_fields = ["full:16:0", "a:16384:1024", "b:16384:17408"]} : !memref_smem_i8
      %iter = cute.get_iter(%smem) : !memref_smem_i8
      %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"1024">
      %ptr = cute.add_offset(%iter, %int_tuple) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"1024">) -> !cute.ptr<i8, smem, align<1024>>
      %int_tuple_0 = cute.make_int_tuple() : () -> !cute.int_tuple<"17408">
      %ptr_1 = cute.add_offset(%iter, %int_tuple_0) : (!cute.ptr<i8, smem, align<1024>>, !cute.int_tuple<"17408">) -> !cute.ptr<i8, smem, align<1024>>
      %iter_2 = cute.recast_iter(%iter) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<i64, smem, align<1024>>
      %13 = cute.composed_get_outer(%arg6) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">) -> !cute.layout<"((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">
      %iter_3 = cute.recast_iter(%ptr) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view = cute.make_view(%iter_3, %13) : !memref_smem_f16
      %14 = cute.composed_get_outer(%arg7) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">) -> !cute.layout<"((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">
      %iter_4 = cute.recast_iter(%ptr_1) : !cute.ptr<i8, smem, align<1024>> to !cute.ptr<f16, smem, align<1024>, S<3,4,3>>
      %view_5 = cute.make_view(%iter_4, %14) : !memref_smem_f16
      %15 = cute.composed_get_outer(%arg8) : (!cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">) -> !cute.layout<"((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">
      %view_6 = cute.make_view(%iter_4, %15) : !memref_smem_f16
      %16 = arith.cmpi eq, %12, %c0_i32 : i32
      scf.if %16 {
        %21 = nvvm.elect.sync -> i1
        scf.if %21 {
          %22 = builtin.unrealized_conversion_cast %iter_2 : !cute.ptr<i64, smem, align<1024>> to !llvm.ptr<3>
          nvvm.mbarrier.init %22, %c1_i32 : !llvm.ptr<3>, i32
          %int_tuple_22 = cute.make_int_tuple() : () -> !cute.int_tuple<"1">
          %ptr_23 = cute.add_offset(%iter_2, %int_tuple_22) : (!cute.ptr<i64, smem, align<1024>>, !cute.int_tuple<"1">) -> !cute.ptr<i64, smem>
          %23 = builtin.unrealized_conversion_cast %ptr_23 : !cute.ptr<i64, smem> to !llvm.ptr<3>
          nvvm.mbarrier.init %23, %c1_i32 : !llvm.ptr<3>, i32
        }
      }
      nvvm.fence.mbarrier.init
      nvvm.barrier
      %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
      %coord = cute.make_coord() : () -> !cute.coord<"(0,_)">
      %tiled_view = cute.local_tile(%arg1, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,_)">) -> !cute.coord_tensor<"(0,0)", "(64,64,2):(1@1,1@0,64@0)">
      %tiled_view_7 = cute.local_tile(%arg3, %tile, %coord) : (!cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">, !cute.tile<"[64:1;64:1]">, !cute.coord<"(0,_)">) -> !cute.coord_tensor<"(0,0)", "(64,64,2):(1@1,1@0,64@0)">
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay = cute.make_layout(%shape) : !cute.layout<"1:0">
      %grouped = cute.group_modes(%view_5) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_8 = cute.group_modes(%tiled_view) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64,2):(1@1,1@0,64@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64),2):((1@1,1@0),64@0)">
      %coord_9 = cute.make_coord() : () -> !cute.coord<"0">
      %res_smem_tensor, %res_target_tensors = cute_nvgpu.atom.tma_partition(%arg0, %coord_9, %lay, %grouped, %grouped_8) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,0)", "((64,64),2):((1@1,1@0),64@0)">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "(((64,64),1),2):(((1@0,1@1),0),64@0)">)
      %grouped_10 = cute.group_modes(%view_6) <0, 2> : (!memref_smem_f16) -> !memref_smem_f16_1
      %grouped_11 = cute.group_modes(%tiled_view_7) <0, 2> : (!cute.coord_tensor<"(0,0)", "(64,64,2):(1@1,1@0,64@0)">) -> !cute.coord_tensor<"(0,0)", "((64,64),2):((1@1,1@0),64@0)">
      %res_smem_tensor_12, %res_target_tensors_13 = cute_nvgpu.atom.tma_partition(%arg2, %coord_9, %lay, %grouped_10, %grouped_11) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord<"0">, !cute.layout<"1:0">, !memref_smem_f16_1, !cute.coord_tensor<"(0,0)", "((64,64),2):((1@1,1@0),64@0)">) -> (!memref_smem_f16_2, !cute.coord_tensor<"(0,0)", "(((64,64),1),2):(((1@0,1@1),0),64@0)">)
      %coord_14 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %ptn_A = cute.tiled.mma.partition A (%arg5, %view, %coord_14) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_3
      %frg_A = cute.mma.make_fragment A (%arg5, %ptn_A) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16_3) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">
      %ptn_B = cute.tiled.mma.partition B (%arg5, %view_5, %coord_14) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16, !cute.coord<"?">) -> !memref_smem_f16_3
      %frg_B = cute.mma.make_fragment B (%arg5, %ptn_B) : (!mma_f16_f16_f32_64x64x16, !memref_smem_f16_3) -> !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">
      %ptn_C = cute.tiled.mma.partition C (%arg5, %arg4, %coord_14) : (!mma_f16_f16_f32_64x64x16, !memref_gmem_f32, !cute.coord<"?">) -> !memref_gmem_f32_1
      %lay_15 = cute.get_layout(%ptn_C) : !memref_gmem_f32_1
      %rmem = cute.memref.alloca() : !memref_rmem_f32
      %17 = cute_nvgpu.atom.set_value<accum_c>(%arg5, %false) : (!mma_f16_f16_f32_64x64x16, i1)
      %18 = scf.for %arg9 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg10 = %17) -> (!mma_f16_f16_f32_64x64x16)  : i32 {
        %21 = arith.remsi %arg9, %c2_i32 : i32
        scf.if %16 {
          %27 = nvvm.elect.sync -> i1
          scf.if %27 {
            %int_tuple_68 = cute.make_int_tuple(%21) : (i32) -> !cute.int_tuple<"?">
            %ptr_69 = cute.add_offset(%iter_2, %int_tuple_68) : (!cute.ptr<i64, smem, align<1024>>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
            %32 = builtin.unrealized_conversion_cast %ptr_69 : !cute.ptr<i64, smem> to !llvm.ptr<3>
            %33 = nvvm.mbarrier.arrive.expect_tx %32, %c16384_i32 : !llvm.ptr<3>, i32 -> i64
          }
          %coord_35 = cute.make_coord(%arg9) : (i32) -> !cute.coord<"(_,?)">
          %slice_36 = cute.slice(%res_target_tensors, %coord_35) : !cute.coord_tensor<"(0,0)", "(((64,64),1),2):(((1@0,1@1),0),64@0)">, !cute.coord<"(_,?)">
          %iter_37 = cute.get_iter(%slice_36) : !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1)):(((1@0,1@1),0))">
          %tup = cute.deref_arith_tuple_iter(%iter_37) : !cute.arith_tuple_iter<"(?{div=64},0)">
          %e0, %e1 = cute.get_leaves(%tup) : !cute.int_tuple<"(?{div=64},0)">
          %coord_38 = cute.make_coord(%21) : (i32) -> !cute.coord<"(_,?)">
          %slice_39 = cute.slice(%res_smem_tensor, %coord_38) : !memref_smem_f16_2, !cute.coord<"(_,?)">
          %iter_40 = cute.get_iter(%slice_39) : !memref_smem_f16_4
          %int_tuple_41 = cute.make_int_tuple(%21) : (i32) -> !cute.int_tuple<"?">
          %ptr_42 = cute.add_offset(%iter_2, %int_tuple_41) : (!cute.ptr<i64, smem, align<1024>>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
          %lay_43 = cute.get_layout(%slice_36) : !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1)):(((1@0,1@1),0))">
          %lay_44 = cute.get_layout(%slice_39) : !memref_smem_f16_4
          %append = cute.append_to_rank<2> (%lay_43, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
          %int_tuple_45 = cute.make_int_tuple(%e0) : (!cute.int_tuple<"?{div=64}">) -> !cute.int_tuple<"(?{div=64},0)">
          %int_tup_iter = cute.make_arith_tuple_iter(%int_tuple_45) : (!cute.int_tuple<"(?{div=64},0)">) -> !cute.arith_tuple_iter<"(?{div=64},0)">
          %view_46 = cute.make_view(%int_tup_iter, %append) : !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
          %grouped_47 = cute.group_modes(%view_46) <1, 2> : (!cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
          %append_48 = cute.append_to_rank<2> (%lay_44, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
          %view_49 = cute.make_view(%iter_40, %append_48) : !memref_smem_f16_5
          %grouped_50 = cute.group_modes(%view_49) <1, 2> : (!memref_smem_f16_5) -> !memref_smem_f16_6
          %28 = cute_nvgpu.atom.make_exec_tma(%arg0) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
          %29 = cute_nvgpu.atom.set_value<tma_bar>(%28, %ptr_42) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem>)
          cute.copy(%29, %grouped_47, %grouped_50) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_6)
          %slice_51 = cute.slice(%res_target_tensors_13, %coord_35) : !cute.coord_tensor<"(0,0)", "(((64,64),1),2):(((1@0,1@1),0),64@0)">, !cute.coord<"(_,?)">
          %iter_52 = cute.get_iter(%slice_51) : !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1)):(((1@0,1@1),0))">
          %tup_53 = cute.deref_arith_tuple_iter(%iter_52) : !cute.arith_tuple_iter<"(?{div=64},0)">
          %e0_54, %e1_55 = cute.get_leaves(%tup_53) : !cute.int_tuple<"(?{div=64},0)">
          %slice_56 = cute.slice(%res_smem_tensor_12, %coord_38) : !memref_smem_f16_2, !cute.coord<"(_,?)">
          %iter_57 = cute.get_iter(%slice_56) : !memref_smem_f16_4
          %lay_58 = cute.get_layout(%slice_51) : !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1)):(((1@0,1@1),0))">
          %lay_59 = cute.get_layout(%slice_56) : !memref_smem_f16_4
          %append_60 = cute.append_to_rank<2> (%lay_58, %lay) : !cute.layout<"(((64,64),1)):(((1@0,1@1),0))">, !cute.layout<"1:0">
          %int_tuple_61 = cute.make_int_tuple(%e0_54) : (!cute.int_tuple<"?{div=64}">) -> !cute.int_tuple<"(?{div=64},0)">
          %int_tup_iter_62 = cute.make_arith_tuple_iter(%int_tuple_61) : (!cute.int_tuple<"(?{div=64},0)">) -> !cute.arith_tuple_iter<"(?{div=64},0)">
          %view_63 = cute.make_view(%int_tup_iter_62, %append_60) : !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),1):(((1@0,1@1),0),0)">
          %grouped_64 = cute.group_modes(%view_63) <1, 2> : (!cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),1):(((1@0,1@1),0),0)">) -> !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">
          %append_65 = cute.append_to_rank<2> (%lay_59, %lay) : !cute.layout<"((4096,1)):((1,0))">, !cute.layout<"1:0">
          %view_66 = cute.make_view(%iter_57, %append_65) : !memref_smem_f16_5
          %grouped_67 = cute.group_modes(%view_66) <1, 2> : (!memref_smem_f16_5) -> !memref_smem_f16_6
          %30 = cute_nvgpu.atom.make_exec_tma(%arg2) : (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>) -> !cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>
          %31 = cute_nvgpu.atom.set_value<tma_bar>(%30, %ptr_42) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.ptr<i64, smem>)
          cute.copy(%31, %grouped_64, %grouped_67) : (!cute_nvgpu.atom.tma_load<f16, copy_bits = 65536, mode = tiled, num_cta = 1, g_stride = <"()"> tma_gbasis = <"(64,64):(1@1,1@0)">>, !cute.coord_tensor<"(?{div=64},0)", "(((64,64),1),(1)):(((1@0,1@1),0),(0))">, !memref_smem_f16_6)
        }
        %int_tuple_22 = cute.make_int_tuple(%21) : (i32) -> !cute.int_tuple<"?">
        %ptr_23 = cute.add_offset(%iter_2, %int_tuple_22) : (!cute.ptr<i64, smem, align<1024>>, !cute.int_tuple<"?">) -> !cute.ptr<i64, smem>
        %22 = builtin.unrealized_conversion_cast %ptr_23 : !cute.ptr<i64, smem> to !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %22, %c0_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
        nvvm.wgmma.fence.aligned
        %coord_24 = cute.make_coord(%21) : (i32) -> !cute.coord<"(_,_,0,?)">
        %slice = cute.slice(%frg_A, %coord_24) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,0,?)">
        %slice_25 = cute.slice(%frg_B, %coord_24) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,0,?)">
        cute.gemm(%arg10, %rmem, %slice, %slice_25, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
        %23 = cute_nvgpu.atom.set_value<accum_c>(%arg10, %true) : (!mma_f16_f16_f32_64x64x16, i1)
        %coord_26 = cute.make_coord(%21) : (i32) -> !cute.coord<"(_,_,1,?)">
        %slice_27 = cute.slice(%frg_A, %coord_26) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,1,?)">
        %slice_28 = cute.slice(%frg_B, %coord_26) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,1,?)">
        cute.gemm(%23, %rmem, %slice_27, %slice_28, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
        %24 = cute_nvgpu.atom.set_value<accum_c>(%23, %true) : (!mma_f16_f16_f32_64x64x16, i1)
        %coord_29 = cute.make_coord(%21) : (i32) -> !cute.coord<"(_,_,2,?)">
        %slice_30 = cute.slice(%frg_A, %coord_29) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,2,?)">
        %slice_31 = cute.slice(%frg_B, %coord_29) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,2,?)">
        cute.gemm(%24, %rmem, %slice_30, %slice_31, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
        %25 = cute_nvgpu.atom.set_value<accum_c>(%24, %true) : (!mma_f16_f16_f32_64x64x16, i1)
        %coord_32 = cute.make_coord(%21) : (i32) -> !cute.coord<"(_,_,3,?)">
        %slice_33 = cute.slice(%frg_A, %coord_32) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,3,?)">
        %slice_34 = cute.slice(%frg_B, %coord_32) : !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1,4,(1,2)):(0,0,2,(0,512))">, !cute.coord<"(_,_,3,?)">
        cute.gemm(%25, %rmem, %slice_33, %slice_34, %rmem) : (!mma_f16_f16_f32_64x64x16, !memref_rmem_f32, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !cute_nvgpu.smem_desc_view<!cute_nvgpu.smem_desc, "(1,1):(0,0)">, !memref_rmem_f32)
        %26 = cute_nvgpu.atom.set_value<accum_c>(%25, %true) : (!mma_f16_f16_f32_64x64x16, i1)
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        scf.yield %26 : !mma_f16_f16_f32_64x64x16
      }
      %lay_16 = cute.get_layout(%rmem) : !memref_rmem_f32
      %rinv = cute.right_inverse(%lay_15) : (!cute.layout<"((2,2,8),1,1):((1,512,8),0,0)">) -> !cute.layout<"2:1">
      %19 = cute.composition(%lay_16, %rinv) : (!cute.layout<"((2,2,8),1,1):((1,2,4),0,0)">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %coalesce = cute.coalesce(%19) : (!cute.layout<"2:1">) -> !cute.layout<"2:1">
      %20 = cute.composition(%rinv, %coalesce) : (!cute.layout<"2:1">, !cute.layout<"2:1">) -> !cute.layout<"2:1">
      %div = cute.logical_divide(%rmem, %20) : !memref_rmem_f32, !cute.layout<"2:1">
      %div_17 = cute.logical_divide(%ptn_C, %20) : !memref_gmem_f32_1, !cute.layout<"2:1">
      %shape_18 = cute.make_shape() : () -> !cute.shape<"2">
      %lay_19 = cute.make_layout(%shape_18) : !cute.layout<"2:1">
      %div_20 = cute.logical_divide(%div, %lay_19) : !memref_rmem_f32_1, !cute.layout<"2:1">
      %div_21 = cute.logical_divide(%div_17, %lay_19) : !memref_gmem_f32_2, !cute.layout<"2:1">
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f32, 64 b>
      cute.copy(%atom, %div_20, %div_21) : (!cute_nvgpu.atom.universal_copy<f32, 64 b>, !memref_rmem_f32_1, !memref_gmem_f32_2)
      return
    }
  }
  func.func @cutlass_launch_FakeTensorFloat16641281281_FakeTensorFloat16641281361_FakeTensorFloat326464641_FakeStream(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16_1, %arg2: !memref_gmem_f32, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
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
    %shape_1 = cute.make_shape() : () -> !cute.shape<"(64,64,2)">
    %int_tuple_2 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1,2)">
    %tile_to_shape = cute.tile_to_shape(%lay_0, %shape_1, %int_tuple_2) : (!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">, !cute.shape<"(64,64,2)">, !cute.int_tuple<"(0,1,2)">) -> !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">
    %coord = cute.make_coord() : () -> !cute.coord<"(_,_,0)">
    %slice = cute.slice(%tile_to_shape, %coord) : !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">, !cute.coord<"(_,_,0)">
    %shape_3 = cute.make_shape() : () -> !cute.shape<"(64,128)">
    %1 = cute.make_identity_layout(%shape_3) : !cute.layout<"(64,128):(1@0,1@1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[64:1;64:1]">
    %2 = cute.composition(%1, %tile) : (!cute.layout<"(64,128):(1@0,1@1)">, !cute.tile<"[64:1;64:1]">) -> !cute.layout<"(64,64):(1@0,1@1)">
    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg0, %slice, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">)
    %non_exec_atom_4, %tma_tensor_5 = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%arg1, %slice, %2) <{kind = <sm_90> num_multicast = 1}> : (!memref_gmem_f16_1, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))">, !cute.layout<"(64,64):(1@0,1@1)">) -> (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">)
    %atom = cute.make_atom(%false) : (i1) -> !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
    %3 = cute.make_tiled_mma(%atom) : !mma_f16_f16_f32_64x64x16
    %4 = cute.kernel_smem_size @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o641281110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0 : i64
    %5 = arith.cmpi sgt, %4, %c232448_i64 : i64
    scf.if %5 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o641281110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0' launch shared memory exceeds current GPU arch sm_90a allowed. Allocated: {} bytes. Max: 232448 bytes.\0A\0A", %4) : i64
    }
    %6 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %4, gridDim = (%c1_i32, %c1_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%6] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %7 = cuda.launch_ex @kernels::@kernel_cutlass_tma_wgmma_kernel_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16_tensor00o641281110_CopyAtom_ThrID10_TVLayoutSrc1409601_TVLayoutDst1409601_Valuetypef16__0<%6> (%non_exec_atom, %tma_tensor, %non_exec_atom_4, %tma_tensor_5, %arg2, %3, %tile_to_shape, %tile_to_shape, %tile_to_shape) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">, !cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">, tma_format = F16_RN>, !cute.coord_tensor<"(0,0)", "(64,128):(1@1,1@0)">, !memref_gmem_f32, !mma_f16_f16_f32_64x64x16, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">, !cute.composed_layout<"S<3,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))">) -> !cuda.result
    %8 = cuda.cast %7 : !cuda.result -> i32
    cuda.return_if_error %8 : i32
    return %c0_i32 : i32
  }
}

