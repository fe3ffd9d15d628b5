// made by: python tests/dsl_elementwise_kernel.py tests/data/dsl/elementwise_compose_b_threads_other.mlir form=compose mistake=b_threads_other (the CuTe DSL, CUTE_DSL_ARCH=sm_80, CUTE_DSL_KEEP=ir)
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "((16,256),(2,4)):((512,1),(256,8192))">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(16,256):(512,1)">
!memref_gmem_f16_2 = !cute.memref<f16, gmem, align<16>, "((32,4),(8,4)):((8,2048),(1,512))">
!memref_gmem_f16_3 = !cute.memref<f16, gmem, align<16>, "((4,32),(8,4)):((2048,8),(1,512))">
!memref_gmem_f16_4 = !cute.memref<f16, gmem, align<16>, "((8,4)):((1,512))">
!memref_gmem_f16_5 = !cute.memref<f16, gmem, align<16>, "(8,4):(1,512)">
!memref_gmem_f16_6 = !cute.memref<f16, gmem, align<16>, "(64,512):(512,1)">
!memref_gmem_f16_7 = !cute.memref<f16, gmem, align<16>, "((16,256),(4,2)):((512,1),(8192,256))">
!memref_rmem_f16 = !cute.memref<f16, rmem, align<32>, "((8,4)):((1,8))">
!memref_rmem_f16_1 = !cute.memref<f16, rmem, align<32>, "(8,4):(1,8)">
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_mul_kernel_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_0(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16, %arg2: !memref_gmem_f16, %arg3: !cute.layout<"((32,4),(8,4)):((128,4),(16,1))">, %arg4: !cute.layout<"((4,32),(8,4)):((4,128),(16,1))">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 2, 4, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %1 = nvvm.read.ptx.sreg.ctaid.x : i32
      %2 = nvvm.read.ptx.sreg.ctaid.y : i32
      %coord = cute.make_coord(%1, %2) : (i32, i32) -> !cute.coord<"((_,_),(?,?))">
      %slice = cute.slice(%arg0, %coord) : !memref_gmem_f16, !cute.coord<"((_,_),(?,?))">
      %3 = cute.composition(%slice, %arg3) : (!memref_gmem_f16_1, !cute.layout<"((32,4),(8,4)):((128,4),(16,1))">) -> !memref_gmem_f16_2
      %coord_0 = cute.make_coord(%0) : (i32) -> !cute.coord<"(?,_)">
      %slice_1 = cute.slice(%3, %coord_0) : !memref_gmem_f16_2, !cute.coord<"(?,_)">
      %slice_2 = cute.slice(%arg1, %coord) : !memref_gmem_f16, !cute.coord<"((_,_),(?,?))">
      %4 = cute.composition(%slice_2, %arg4) : (!memref_gmem_f16_1, !cute.layout<"((4,32),(8,4)):((4,128),(16,1))">) -> !memref_gmem_f16_3
      %slice_3 = cute.slice(%4, %coord_0) : !memref_gmem_f16_3, !cute.coord<"(?,_)">
      %slice_4 = cute.slice(%arg2, %coord) : !memref_gmem_f16, !cute.coord<"((_,_),(?,?))">
      %5 = cute.composition(%slice_4, %arg3) : (!memref_gmem_f16_1, !cute.layout<"((32,4),(8,4)):((128,4),(16,1))">) -> !memref_gmem_f16_2
      %slice_5 = cute.slice(%5, %coord_0) : !memref_gmem_f16_2, !cute.coord<"(?,_)">
      %lay = cute.get_layout(%slice_1) : !memref_gmem_f16_4
      %rmem = cute.memref.alloca() : !memref_rmem_f16
      %lay_6 = cute.get_layout(%rmem) : !memref_rmem_f16
      %rinv = cute.right_inverse(%lay_6) : (!cute.layout<"((8,4)):((1,8))">) -> !cute.layout<"32:1">
      %6 = cute.composition(%lay, %rinv) : (!cute.layout<"((8,4)):((1,512))">, !cute.layout<"32:1">) -> !cute.layout<"(8,4):(1,512)">
      %coalesce = cute.coalesce(%6) : (!cute.layout<"(8,4):(1,512)">) -> !cute.layout<"(8,4):(1,512)">
      %7 = cute.get(%coalesce) <{mode = [0]}> : !cute.layout<"(8,4):(1,512)"> -> !cute.layout<"8:1">
      %8 = cute.composition(%rinv, %7) : (!cute.layout<"32:1">, !cute.layout<"8:1">) -> !cute.layout<"8:1">
      %div = cute.logical_divide(%slice_1, %8) : !memref_gmem_f16_4, !cute.layout<"8:1">
      %div_7 = cute.logical_divide(%rmem, %8) : !memref_rmem_f16, !cute.layout<"8:1">
      %shape = cute.make_shape() : () -> !cute.shape<"8">
      %lay_8 = cute.make_layout(%shape) : !cute.layout<"8:1">
      %div_9 = cute.logical_divide(%div, %lay_8) : !memref_gmem_f16_5, !cute.layout<"8:1">
      %div_10 = cute.logical_divide(%div_7, %lay_8) : !memref_rmem_f16_1, !cute.layout<"8:1">
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f16, 128 b>
      cute.copy(%atom, %div_9, %div_10) : (!cute_nvgpu.atom.universal_copy<f16, 128 b>, !memref_gmem_f16_5, !memref_rmem_f16_1)
      %9 = cute.memref.load_vec(%rmem) : (!memref_rmem_f16) -> vector<32xf16>
      %lay_11 = cute.get_layout(%slice_3) : !memref_gmem_f16_4
      %rmem_12 = cute.memref.alloca() : !memref_rmem_f16
      %lay_13 = cute.get_layout(%rmem_12) : !memref_rmem_f16
      %rinv_14 = cute.right_inverse(%lay_13) : (!cute.layout<"((8,4)):((1,8))">) -> !cute.layout<"32:1">
      %10 = cute.composition(%lay_11, %rinv_14) : (!cute.layout<"((8,4)):((1,512))">, !cute.layout<"32:1">) -> !cute.layout<"(8,4):(1,512)">
      %coalesce_15 = cute.coalesce(%10) : (!cute.layout<"(8,4):(1,512)">) -> !cute.layout<"(8,4):(1,512)">
      %11 = cute.get(%coalesce_15) <{mode = [0]}> : !cute.layout<"(8,4):(1,512)"> -> !cute.layout<"8:1">
      %12 = cute.composition(%rinv_14, %11) : (!cute.layout<"32:1">, !cute.layout<"8:1">) -> !cute.layout<"8:1">
      %div_16 = cute.logical_divide(%slice_3, %12) : !memref_gmem_f16_4, !cute.layout<"8:1">
      %div_17 = cute.logical_divide(%rmem_12, %12) : !memref_rmem_f16, !cute.layout<"8:1">
      %div_18 = cute.logical_divide(%div_16, %lay_8) : !memref_gmem_f16_5, !cute.layout<"8:1">
      %div_19 = cute.logical_divide(%div_17, %lay_8) : !memref_rmem_f16_1, !cute.layout<"8:1">
      cute.copy(%atom, %div_18, %div_19) : (!cute_nvgpu.atom.universal_copy<f16, 128 b>, !memref_gmem_f16_5, !memref_rmem_f16_1)
      %13 = cute.memref.load_vec(%rmem_12) : (!memref_rmem_f16) -> vector<32xf16>
      %14 = arith.mulf %9, %13 : vector<32xf16>
      %lay_20 = cute.get_layout(%slice_5) : !memref_gmem_f16_4
      %rmem_21 = cute.memref.alloca() : !memref_rmem_f16
      %15 = vector.extract %14[0] : f16 from vector<32xf16>
      %coord_22 = cute.make_coord() : () -> !cute.coord<"0">
      cute.memref.store(%rmem_21, %coord_22, %15) : (!memref_rmem_f16, !cute.coord<"0">, f16) -> ()
      %16 = vector.extract %14[1] : f16 from vector<32xf16>
      %coord_23 = cute.make_coord() : () -> !cute.coord<"1">
      cute.memref.store(%rmem_21, %coord_23, %16) : (!memref_rmem_f16, !cute.coord<"1">, f16) -> ()
      %17 = vector.extract %14[2] : f16 from vector<32xf16>
      %coord_24 = cute.make_coord() : () -> !cute.coord<"2">
      cute.memref.store(%rmem_21, %coord_24, %17) : (!memref_rmem_f16, !cute.coord<"2">, f16) -> ()
      %18 = vector.extract %14[3] : f16 from vector<32xf16>
      %coord_25 = cute.make_coord() : () -> !cute.coord<"3">
      cute.memref.store(%rmem_21, %coord_25, %18) : (!memref_rmem_f16, !cute.coord<"3">, f16) -> ()
      %19 = vector.extract %14[4] : f16 from vector<32xf16>
      %coord_26 = cute.make_coord() : () -> !cute.coord<"4">
      cute.memref.store(%rmem_21, %coord_26, %19) : (!memref_rmem_f16, !cute.coord<"4">, f16) -> ()
      %20 = vector.extract %14[5] : f16 from vector<32xf16>
      %coord_27 = cute.make_coord() : () -> !cute.coord<"5">
      cute.memref.store(%rmem_21, %coord_27, %20) : (!memref_rmem_f16, !cute.coord<"5">, f16) -> ()
      %21 = vector.extract %14[6] : f16 from vector<32xf16>
      %coord_28 = cute.make_coord() : () -> !cute.coord<"6">
      cute.memref.store(%rmem_21, %coord_28, %21) : (!memref_rmem_f16, !cute.coord<"6">, f16) -> ()
      %22 = vector.extract %14[7] : f16 from vector<32xf16>
      %coord_29 = cute.make_coord() : () -> !cute.coord<"7">
      cute.memref.store(%rmem_21, %coord_29, %22) : (!memref_rmem_f16, !cute.coord<"7">, f16) -> ()
      %23 = vector.extract %14[8] : f16 from vector<32xf16>
      %coord_30 = cute.make_coord() : () -> !cute.coord<"8">
      cute.memref.store(%rmem_21, %coord_30, %23) : (!memref_rmem_f16, !cute.coord<"8">, f16) -> ()
      %24 = vector.extract %14[9] : f16 from vector<32xf16>
      %coord_31 = cute.make_coord() : () -> !cute.coord<"9">
      cute.memref.store(%rmem_21, %coord_31, %24) : (!memref_rmem_f16, !cute.coord<"9">, f16) -> ()
      %25 = vector.extract %14[10] : f16 from vector<32xf16>
      %coord_32 = cute.make_coord() : () -> !cute.coord<"10">
      cute.memref.store(%rmem_21, %coord_32, %25) : (!memref_rmem_f16, !cute.coord<"10">, f16) -> ()
      %26 = vector.extract %14[11] : f16 from vector<32xf16>
      %coord_33 = cute.make_coord() : () -> !cute.coord<"11">
      cute.memref.store(%rmem_21, %coord_33, %26) : (!memref_rmem_f16, !cute.coord<"11">, f16) -> ()
      %27 = vector.extract %14[12] : f16 from vector<32xf16>
      %coord_34 = cute.make_coord() : () -> !cute.coord<"12">
      cute.memref.store(%rmem_21, %coord_34, %27) : (!memref_rmem_f16, !cute.coord<"12">, f16) -> ()
      %28 = vector.extract %14[13] : f16 from vector<32xf16>
      %coord_35 = cute.make_coord() : () -> !cute.coord<"13">
      cute.memref.store(%rmem_21, %coord_35, %28) : (!memref_rmem_f16, !cute.coord<"13">, f16) -> ()
      %29 = vector.extract %14[14] : f16 from vector<32xf16>
      %coord_36 = cute.make_coord() : () -> !cute.coord<"14">
      cute.memref.store(%rmem_21, %coord_36, %29) : (!memref_rmem_f16, !cute.coord<"14">, f16) -> ()
      %30 = vector.extract %14[15] : f16 from vector<32xf16>
      %coord_37 = cute.make_coord() : () -> !cute.coord<"15">
      cute.memref.store(%rmem_21, %coord_37, %30) : (!memref_rmem_f16, !cute.coord<"15">, f16) -> ()
      %31 = vector.extract %14[16] : f16 from vector<32xf16>
      %coord_38 = cute.make_coord() : () -> !cute.coord<"16">
      cute.memref.store(%rmem_21, %coord_38, %31) : (!memref_rmem_f16, !cute.coord<"16">, f16) -> ()
      %32 = vector.extract %14[17] : f16 from vector<32xf16>
      %coord_39 = cute.make_coord() : () -> !cute.coord<"17">
      cute.memref.store(%rmem_21, %coord_39, %32) : (!memref_rmem_f16, !cute.coord<"17">, f16) -> ()
      %33 = vector.extract %14[18] : f16 from vector<32xf16>
      %coord_40 = cute.make_coord() : () -> !cute.coord<"18">
      cute.memref.store(%rmem_21, %coord_40, %33) : (!memref_rmem_f16, !cute.coord<"18">, f16) -> ()
      %34 = vector.extract %14[19] : f16 from vector<32xf16>
      %coord_41 = cute.make_coord() : () -> !cute.coord<"19">
      cute.memref.store(%rmem_21, %coord_41, %34) : (!memref_rmem_f16, !cute.coord<"19">, f16) -> ()
      %35 = vector.extract %14[20] : f16 from vector<32xf16>
      %coord_42 = cute.make_coord() : () -> !cute.coord<"20">
      cute.memref.store(%rmem_21, %coord_42, %35) : (!memref_rmem_f16, !cute.coord<"20">, f16) -> ()
      %36 = vector.extract %14[21] : f16 from vector<32xf16>
      %coord_43 = cute.make_coord() : () -> !cute.coord<"21">
      cute.memref.store(%rmem_21, %coord_43, %36) : (!memref_rmem_f16, !cute.coord<"21">, f16) -> ()
      %37 = vector.extract %14[22] : f16 from vector<32xf16>
      %coord_44 = cute.make_coord() : () -> !cute.coord<"22">
      cute.memref.store(%rmem_21, %coord_44, %37) : (!memref_rmem_f16, !cute.coord<"22">, f16) -> ()
      %38 = vector.extract %14[23] : f16 from vector<32xf16>
      %coord_45 = cute.make_coord() : () -> !cute.coord<"23">
      cute.memref.store(%rmem_21, %coord_45, %38) : (!memref_rmem_f16, !cute.coord<"23">, f16) -> ()
      %39 = vector.extract %14[24] : f16 from vector<32xf16>
      %coord_46 = cute.make_coord() : () -> !cute.coord<"24">
      cute.memref.store(%rmem_21, %coord_46, %39) : (!memref_rmem_f16, !cute.coord<"24">, f16) -> ()
      %40 = vector.extract %14[25] : f16 from vector<32xf16>
      %coord_47 = cute.make_coord() : () -> !cute.coord<"25">
      cute.memref.store(%rmem_21, %coord_47, %40) : (!memref_rmem_f16, !cute.coord<"25">, f16) -> ()
      %41 = vector.extract %14[26] : f16 from vector<32xf16>
      %coord_48 = cute.make_coord() : () -> !cute.coord<"26">
      cute.memref.store(%rmem_21, %coord_48, %41) : (!memref_rmem_f16, !cute.coord<"26">, f16) -> ()
      %42 = vector.extract %14[27] : f16 from vector<32xf16>
      %coord_49 = cute.make_coord() : () -> !cute.coord<"27">
      cute.memref.store(%rmem_21, %coord_49, %42) : (!memref_rmem_f16, !cute.coord<"27">, f16) -> ()
      %43 = vector.extract %14[28] : f16 from vector<32xf16>
      %coord_50 = cute.make_coord() : () -> !cute.coord<"28">
      cute.memref.store(%rmem_21, %coord_50, %43) : (!memref_rmem_f16, !cute.coord<"28">, f16) -> ()
      %44 = vector.extract %14[29] : f16 from vector<32xf16>
      %coord_51 = cute.make_coord() : () -> !cute.coord<"29">
      cute.memref.store(%rmem_21, %coord_51, %44) : (!memref_rmem_f16, !cute.coord<"29">, f16) -> ()
      %45 = vector.extract %14[30] : f16 from vector<32xf16>
      %coord_52 = cute.make_coord() : () -> !cute.coord<"30">
      cute.memref.store(%rmem_21, %coord_52, %45) : (!memref_rmem_f16, !cute.coord<"30">, f16) -> ()
      %46 = vector.extract %14[31] : f16 from vector<32xf16>
      %coord_53 = cute.make_coord() : () -> !cute.coord<"31">
      cute.memref.store(%rmem_21, %coord_53, %46) : (!memref_rmem_f16, !cute.coord<"31">, f16) -> ()
      %lay_54 = cute.get_layout(%rmem_21) : !memref_rmem_f16
      %rinv_55 = cute.right_inverse(%lay_20) : (!cute.layout<"((8,4)):((1,512))">) -> !cute.layout<"8:1">
      %47 = cute.composition(%lay_54, %rinv_55) : (!cute.layout<"((8,4)):((1,8))">, !cute.layout<"8:1">) -> !cute.layout<"8:1">
      %coalesce_56 = cute.coalesce(%47) : (!cute.layout<"8:1">) -> !cute.layout<"8:1">
      %48 = cute.composition(%rinv_55, %coalesce_56) : (!cute.layout<"8:1">, !cute.layout<"8:1">) -> !cute.layout<"8:1">
      %div_57 = cute.logical_divide(%rmem_21, %48) : !memref_rmem_f16, !cute.layout<"8:1">
      %div_58 = cute.logical_divide(%slice_5, %48) : !memref_gmem_f16_4, !cute.layout<"8:1">
      %div_59 = cute.logical_divide(%div_57, %lay_8) : !memref_rmem_f16_1, !cute.layout<"8:1">
      %div_60 = cute.logical_divide(%div_58, %lay_8) : !memref_gmem_f16_5, !cute.layout<"8:1">
      cute.copy(%atom, %div_59, %div_60) : (!cute_nvgpu.atom.universal_copy<f16, 128 b>, !memref_rmem_f16_1, !memref_gmem_f16_5)
      return
    }
  }
  func.func @cutlass_launch_mul_FakeTensorFloat16645125121_FakeTensorFloat16645125121_FakeTensorFloat16645125121_FakeStream(%arg0: !memref_gmem_f16_6, %arg1: !memref_gmem_f16_6, %arg2: !memref_gmem_f16_6, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c4_i32 = arith.constant 4 : i32
    %c2_i32 = arith.constant 2 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c166912_i64 = arith.constant 166912 : i64
    %shape = cute.make_shape() : () -> !cute.shape<"(4,32)">
    %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"(1,0)">
    %lay = cute.make_ordered_layout(%shape, %int_tuple) : (!cute.shape<"(4,32)">, !cute.int_tuple<"(1,0)">) -> !cute.layout<"(4,32):(32,1)">
    %shape_0 = cute.make_shape() : () -> !cute.shape<"(4,8)">
    %lay_1 = cute.make_ordered_layout(%shape_0, %int_tuple) : (!cute.shape<"(4,8)">, !cute.int_tuple<"(1,0)">) -> !cute.layout<"(4,8):(8,1)">
    %prod = cute.raked_product(%lay, %lay_1) : (!cute.layout<"(4,32):(32,1)">, !cute.layout<"(4,8):(8,1)">) -> !cute.layout<"((4,4),(8,32)):((1024,32),(128,1))">
    %shape_2 = cute.make_shape() : () -> !cute.shape<"(128,32)">
    %lay_3 = cute.make_layout(%shape_2) : !cute.layout<"(128,32):(1,128)">
    %rinv = cute.right_inverse(%prod) : (!cute.layout<"((4,4),(8,32)):((1024,32),(128,1))">) -> !cute.layout<"(32,32,4):(128,4,1)">
    %0 = cute.composition(%rinv, %lay_3) : (!cute.layout<"(32,32,4):(128,4,1)">, !cute.layout<"(128,32):(1,128)">) -> !cute.layout<"((32,4),(8,4)):((128,4),(16,1))">
    %int_tuple_4 = cute.make_int_tuple() : () -> !cute.int_tuple<"(0,1)">
    %lay_5 = cute.make_ordered_layout(%shape, %int_tuple_4) : (!cute.shape<"(4,32)">, !cute.int_tuple<"(0,1)">) -> !cute.layout<"(4,32):(1,4)">
    %prod_6 = cute.raked_product(%lay_5, %lay_1) : (!cute.layout<"(4,32):(1,4)">, !cute.layout<"(4,8):(8,1)">) -> !cute.layout<"((4,4),(8,32)):((1024,1),(128,4))">
    %rinv_7 = cute.right_inverse(%prod_6) : (!cute.layout<"((4,4),(8,32)):((1024,1),(128,4))">) -> !cute.layout<"(4,32,8,4):(4,128,16,1)">
    %1 = cute.composition(%rinv_7, %lay_3) : (!cute.layout<"(4,32,8,4):(4,128,16,1)">, !cute.layout<"(128,32):(1,128)">) -> !cute.layout<"((4,32),(8,4)):((4,128),(16,1))">
    %tile = cute.make_tile() : () -> !cute.tile<"[16:1;256:1]">
    %div = cute.zipped_divide(%arg0, %tile) : !memref_gmem_f16_6, !cute.tile<"[16:1;256:1]">
    %div_8 = cute.zipped_divide(%arg1, %tile) : !memref_gmem_f16_6, !cute.tile<"[16:1;256:1]">
    %div_9 = cute.zipped_divide(%arg2, %tile) : !memref_gmem_f16_6, !cute.tile<"[16:1;256:1]">
    %tile_10 = cute.make_tile() : () -> !cute.tile<"[_;(2,4):(4,1)]">
    %2 = cute.composition(%div, %tile_10) : (!memref_gmem_f16_7, !cute.tile<"[_;(2,4):(4,1)]">) -> !memref_gmem_f16
    %3 = cute.composition(%div_8, %tile_10) : (!memref_gmem_f16_7, !cute.tile<"[_;(2,4):(4,1)]">) -> !memref_gmem_f16
    %4 = cute.composition(%div_9, %tile_10) : (!memref_gmem_f16_7, !cute.tile<"[_;(2,4):(4,1)]">) -> !memref_gmem_f16
    %5 = cute.kernel_smem_size @kernels::@kernel_cutlass_mul_kernel_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_0 : i64
    %6 = arith.cmpi sgt, %5, %c166912_i64 : i64
    scf.if %6 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_mul_kernel_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_0' launch shared memory exceeds current GPU arch sm_80 allowed. Allocated: {} bytes. Max: 166912 bytes.\0A\0A", %5) : i64
    }
    %7 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %5, gridDim = (%c2_i32, %c4_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%7] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%7] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %8 = cuda.launch_ex @kernels::@kernel_cutlass_mul_kernel_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_tensorptrf16gmemalign16o162562451212568192_0<%7> (%2, %3, %4, %0, %1) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!memref_gmem_f16, !memref_gmem_f16, !memref_gmem_f16, !cute.layout<"((32,4),(8,4)):((128,4),(16,1))">, !cute.layout<"((4,32),(8,4)):((4,128),(16,1))">) -> !cuda.result
    %9 = cuda.cast %8 : !cuda.result -> i32
    cuda.return_if_error %9 : i32
    return %c0_i32 : i32
  }
}

