// made by: python tests/dsl_elementwise_kernel.py tests/data/dsl/elementwise_slice_q_tile_2x.mlir form=slice mistake=q_tile_2x (the CuTe DSL, CUTE_DSL_ARCH=sm_80, CUTE_DSL_KEEP=ir)
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "(64,256):(256,1)">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "((1,128),(64,2)):((0,1),(256,128))">
!memref_gmem_f16_2 = !cute.memref<f16, gmem, align<16>, "((1,128)):((0,1))">
!memref_gmem_f16_3 = !cute.memref<f16, gmem, align<16>, "(128,1):(1,0)">
!memref_gmem_f16_4 = !cute.memref<f16, gmem, align<16>, "(8,16):(1,8)">
!memref_gmem_i8 = !cute.memref<i8, gmem, align<16>, "(64,256):(256,1)">
!memref_gmem_i8_1 = !cute.memref<i8, gmem, align<16>, "((2,64),(32,4)):((256,1),(512,64))">
!memref_gmem_i8_2 = !cute.memref<i8, gmem, align<16>, "((2,64)):((256,1))">
!memref_rmem_f16 = !cute.memref<f16, rmem, align<32>, "((1,128)):((0,1))">
!memref_rmem_f16_1 = !cute.memref<f16, rmem, align<32>, "(128,1):(1,0)">
!memref_rmem_f16_2 = !cute.memref<f16, rmem, align<32>, "(8,16):(1,8)">
!memref_rmem_i8 = !cute.memref<i8, rmem, align<32>, "((2,64)):((1,2))">
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_scale_kernel_tensorptri8gmemalign16o642562561__tensorptrf16gmemalign16o642562561_0(%arg0: !memref_gmem_i8, %arg1: f32, %arg2: !memref_gmem_f16) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 64, 1, 1>, exact_grid_dim = array<i64: 2, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 64, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %tile = cute.make_tile() : () -> !cute.tile<"[2:1;64:1]">
      %div = cute.zipped_divide(%arg0, %tile) : !memref_gmem_i8, !cute.tile<"[2:1;64:1]">
      %tile_0 = cute.make_tile() : () -> !cute.tile<"[1:0;128:1]">
      %div_1 = cute.zipped_divide(%arg2, %tile_0) : !memref_gmem_f16, !cute.tile<"[1:0;128:1]">
      %rmem = cute.memref.alloca() : !memref_rmem_i8
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %1 = nvvm.read.ptx.sreg.ntid.x : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %1 : i32
      %4 = arith.addi %0, %3 : i32
      %coord = cute.make_coord(%4) : (i32) -> !cute.coord<"(_,?)">
      %slice = cute.slice(%div, %coord) : !memref_gmem_i8_1, !cute.coord<"(_,?)">
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<i8, 8 b>
      cute.copy(%atom, %slice, %rmem) : (!cute_nvgpu.atom.universal_copy<i8, 8 b>, !memref_gmem_i8_2, !memref_rmem_i8)
      %slice_2 = cute.slice(%div_1, %coord) : !memref_gmem_f16_1, !cute.coord<"(_,?)">
      %5 = cute.memref.load_vec(%rmem) : (!memref_rmem_i8) -> vector<128xi8>
      %6 = arith.sitofp %5 : vector<128xi8> to vector<128xf32>
      %7 = vector.broadcast %arg1 : f32 to vector<128xf32>
      %8 = arith.mulf %6, %7 : vector<128xf32>
      %9 = arith.truncf %8 : vector<128xf32> to vector<128xf16>
      %lay = cute.get_layout(%slice_2) : !memref_gmem_f16_2
      %rmem_3 = cute.memref.alloca() : !memref_rmem_f16
      %10 = vector.extract %9[0] : f16 from vector<128xf16>
      %coord_4 = cute.make_coord() : () -> !cute.coord<"0">
      cute.memref.store(%rmem_3, %coord_4, %10) : (!memref_rmem_f16, !cute.coord<"0">, f16) -> ()
      %11 = vector.extract %9[1] : f16 from vector<128xf16>
      %coord_5 = cute.make_coord() : () -> !cute.coord<"1">
      cute.memref.store(%rmem_3, %coord_5, %11) : (!memref_rmem_f16, !cute.coord<"1">, f16) -> ()
      %12 = vector.extract %9[2] : f16 from vector<128xf16>
      %coord_6 = cute.make_coord() : () -> !cute.coord<"2">
      cute.memref.store(%rmem_3, %coord_6, %12) : (!memref_rmem_f16, !cute.coord<"2">, f16) -> ()
      %13 = vector.extract %9[3] : f16 from vector<128xf16>
      %coord_7 = cute.make_coord() : () -> !cute.coord<"3">
      cute.memref.store(%rmem_3, %coord_7, %13) : (!memref_rmem_f16, !cute.coord<"3">, f16) -> ()
      %14 = vector.extract %9[4] : f16 from vector<128xf16>
      %coord_8 = cute.make_coord() : () -> !cute.coord<"4">
      cute.memref.store(%rmem_3, %coord_8, %14) : (!memref_rmem_f16, !cute.coord<"4">, f16) -> ()
      %15 = vector.extract %9[5] : f16 from vector<128xf16>
      %coord_9 = cute.make_coord() : () -> !cute.coord<"5">
      cute.memref.store(%rmem_3, %coord_9, %15) : (!memref_rmem_f16, !cute.coord<"5">, f16) -> ()
      %16 = vector.extract %9[6] : f16 from vector<128xf16>
      %coord_10 = cute.make_coord() : () -> !cute.coord<"6">
      cute.memref.store(%rmem_3, %coord_10, %16) : (!memref_rmem_f16, !cute.coord<"6">, f16) -> ()
      %17 = vector.extract %9[7] : f16 from vector<128xf16>
      %coord_11 = cute.make_coord() : () -> !cute.coord<"7">
      cute.memref.store(%rmem_3, %coord_11, %17) : (!memref_rmem_f16, !cute.coord<"7">, f16) -> ()
      %18 = vector.extract %9[8] : f16 from vector<128xf16>
      %coord_12 = cute.make_coord() : () -> !cute.coord<"8">
      cute.memref.store(%rmem_3, %coord_12, %18) : (!memref_rmem_f16, !cute.coord<"8">, f16) -> ()
      %19 = vector.extract %9[9] : f16 from vector<128xf16>
      %coord_13 = cute.make_coord() : () -> !cute.coord<"9">
      cute.memref.store(%rmem_3, %coord_13, %19) : (!memref_rmem_f16, !cute.coord<"9">, f16) -> ()
      %20 = vector.extract %9[10] : f16 from vector<128xf16>
      %coord_14 = cute.make_coord() : () -> !cute.coord<"10">
      cute.memref.store(%rmem_3, %coord_14, %20) : (!memref_rmem_f16, !cute.coord<"10">, f16) -> ()
      %21 = vector.extract %9[11] : f16 from vector<128xf16>
      %coord_15 = cute.make_coord() : () -> !cute.coord<"11">
      cute.memref.store(%rmem_3, %coord_15, %21) : (!memref_rmem_f16, !cute.coord<"11">, f16) -> ()
      %22 = vector.extract %9[12] : f16 from vector<128xf16>
      %coord_16 = cute.make_coord() : () -> !cute.coord<"12">
      cute.memref.store(%rmem_3, %coord_16, %22) : (!memref_rmem_f16, !cute.coord<"12">, f16) -> ()
      %23 = vector.extract %9[13] : f16 from vector<128xf16>
      %coord_17 = cute.make_coord() : () -> !cute.coord<"13">
      cute.memref.store(%rmem_3, %coord_17, %23) : (!memref_rmem_f16, !cute.coord<"13">, f16) -> ()
      %24 = vector.extract %9[14] : f16 from vector<128xf16>
      %coord_18 = cute.make_coord() : () -> !cute.coord<"14">
      cute.memref.store(%rmem_3, %coord_18, %24) : (!memref_rmem_f16, !cute.coord<"14">, f16) -> ()
      %25 = vector.extract %9[15] : f16 from vector<128xf16>
      %coord_19 = cute.make_coord() : () -> !cute.coord<"15">
      cute.memref.store(%rmem_3, %coord_19, %25) : (!memref_rmem_f16, !cute.coord<"15">, f16) -> ()
      %26 = vector.extract %9[16] : f16 from vector<128xf16>
      %coord_20 = cute.make_coord() : () -> !cute.coord<"16">
      cute.memref.store(%rmem_3, %coord_20, %26) : (!memref_rmem_f16, !cute.coord<"16">, f16) -> ()
      %27 = vector.extract %9[17] : f16 from vector<128xf16>
      %coord_21 = cute.make_coord() : () -> !cute.coord<"17">
      cute.memref.store(%rmem_3, %coord_21, %27) : (!memref_rmem_f16, !cute.coord<"17">, f16) -> ()
      %28 = vector.extract %9[18] : f16 from vector<128xf16>
      %coord_22 = cute.make_coord() : () -> !cute.coord<"18">
      cute.memref.store(%rmem_3, %coord_22, %28) : (!memref_rmem_f16, !cute.coord<"18">, f16) -> ()
      %29 = vector.extract %9[19] : f16 from vector<128xf16>
      %coord_23 = cute.make_coord() : () -> !cute.coord<"19">
      cute.memref.store(%rmem_3, %coord_23, %29) : (!memref_rmem_f16, !cute.coord<"19">, f16) -> ()
      %30 = vector.extract %9[20] : f16 from vector<128xf16>
      %coord_24 = cute.make_coord() : () -> !cute.coord<"20">
      cute.memref.store(%rmem_3, %coord_24, %30) : (!memref_rmem_f16, !cute.coord<"20">, f16) -> ()
      %31 = vector.extract %9[21] : f16 from vector<128xf16>
      %coord_25 = cute.make_coord() : () -> !cute.coord<"21">
      cute.memref.store(%rmem_3, %coord_25, %31) : (!memref_rmem_f16, !cute.coord<"21">, f16) -> ()
      %32 = vector.extract %9[22] : f16 from vector<128xf16>
      %coord_26 = cute.make_coord() : () -> !cute.coord<"22">
      cute.memref.store(%rmem_3, %coord_26, %32) : (!memref_rmem_f16, !cute.coord<"22">, f16) -> ()
      %33 = vector.extract %9[23] : f16 from vector<128xf16>
      %coord_27 = cute.make_coord() : () -> !cute.coord<"23">
      cute.memref.store(%rmem_3, %coord_27, %33) : (!memref_rmem_f16, !cute.coord<"23">, f16) -> ()
      %34 = vector.extract %9[24] : f16 from vector<128xf16>
      %coord_28 = cute.make_coord() : () -> !cute.coord<"24">
      cute.memref.store(%rmem_3, %coord_28, %34) : (!memref_rmem_f16, !cute.coord<"24">, f16) -> ()
      %35 = vector.extract %9[25] : f16 from vector<128xf16>
      %coord_29 = cute.make_coord() : () -> !cute.coord<"25">
      cute.memref.store(%rmem_3, %coord_29, %35) : (!memref_rmem_f16, !cute.coord<"25">, f16) -> ()
      %36 = vector.extract %9[26] : f16 from vector<128xf16>
      %coord_30 = cute.make_coord() : () -> !cute.coord<"26">
      cute.memref.store(%rmem_3, %coord_30, %36) : (!memref_rmem_f16, !cute.coord<"26">, f16) -> ()
      %37 = vector.extract %9[27] : f16 from vector<128xf16>
      %coord_31 = cute.make_coord() : () -> !cute.coord<"27">
      cute.memref.store(%rmem_3, %coord_31, %37) : (!memref_rmem_f16, !cute.coord<"27">, f16) -> ()
      %38 = vector.extract %9[28] : f16 from vector<128xf16>
      %coord_32 = cute.make_coord() : () -> !cute.coord<"28">
      cute.memref.store(%rmem_3, %coord_32, %38) : (!memref_rmem_f16, !cute.coord<"28">, f16) -> ()
      %39 = vector.extract %9[29] : f16 from vector<128xf16>
      %coord_33 = cute.make_coord() : () -> !cute.coord<"29">
      cute.memref.store(%rmem_3, %coord_33, %39) : (!memref_rmem_f16, !cute.coord<"29">, f16) -> ()
      %40 = vector.extract %9[30] : f16 from vector<128xf16>
      %coord_34 = cute.make_coord() : () -> !cute.coord<"30">
      cute.memref.store(%rmem_3, %coord_34, %40) : (!memref_rmem_f16, !cute.coord<"30">, f16) -> ()
      %41 = vector.extract %9[31] : f16 from vector<128xf16>
      %coord_35 = cute.make_coord() : () -> !cute.coord<"31">
      cute.memref.store(%rmem_3, %coord_35, %41) : (!memref_rmem_f16, !cute.coord<"31">, f16) -> ()
      %42 = vector.extract %9[32] : f16 from vector<128xf16>
      %coord_36 = cute.make_coord() : () -> !cute.coord<"32">
      cute.memref.store(%rmem_3, %coord_36, %42) : (!memref_rmem_f16, !cute.coord<"32">, f16) -> ()
      %43 = vector.extract %9[33] : f16 from vector<128xf16>
      %coord_37 = cute.make_coord() : () -> !cute.coord<"33">
      cute.memref.store(%rmem_3, %coord_37, %43) : (!memref_rmem_f16, !cute.coord<"33">, f16) -> ()
      %44 = vector.extract %9[34] : f16 from vector<128xf16>
      %coord_38 = cute.make_coord() : () -> !cute.coord<"34">
      cute.memref.store(%rmem_3, %coord_38, %44) : (!memref_rmem_f16, !cute.coord<"34">, f16) -> ()
      %45 = vector.extract %9[35] : f16 from vector<128xf16>
      %coord_39 = cute.make_coord() : () -> !cute.coord<"35">
      cute.memref.store(%rmem_3, %coord_39, %45) : (!memref_rmem_f16, !cute.coord<"35">, f16) -> ()
      %46 = vector.extract %9[36] : f16 from vector<128xf16>
      %coord_40 = cute.make_coord() : () -> !cute.coord<"36">
      cute.memref.store(%rmem_3, %coord_40, %46) : (!memref_rmem_f16, !cute.coord<"36">, f16) -> ()
      %47 = vector.extract %9[37] : f16 from vector<128xf16>
      %coord_41 = cute.make_coord() : () -> !cute.coord<"37">
      cute.memref.store(%rmem_3, %coord_41, %47) : (!memref_rmem_f16, !cute.coord<"37">, f16) -> ()
      %48 = vector.extract %9[38] : f16 from vector<128xf16>
      %coord_42 = cute.make_coord() : () -> !cute.coord<"38">
      cute.memref.store(%rmem_3, %coord_42, %48) : (!memref_rmem_f16, !cute.coord<"38">, f16) -> ()
      %49 = vector.extract %9[39] : f16 from vector<128xf16>
      %coord_43 = cute.make_coord() : () -> !cute.coord<"39">
      cute.memref.store(%rmem_3, %coord_43, %49) : (!memref_rmem_f16, !cute.coord<"39">, f16) -> ()
      %50 = vector.extract %9[40] : f16 from vector<128xf16>
      %coord_44 = cute.make_coord() : () -> !cute.coord<"40">
      cute.memref.store(%rmem_3, %coord_44, %50) : (!memref_rmem_f16, !cute.coord<"40">, f16) -> ()
      %51 = vector.extract %9[41] : f16 from vector<128xf16>
      %coord_45 = cute.make_coord() : () -> !cute.coord<"41">
      cute.memref.store(%rmem_3, %coord_45, %51) : (!memref_rmem_f16, !cute.coord<"41">, f16) -> ()
      %52 = vector.extract %9[42] : f16 from vector<128xf16>
      %coord_46 = cute.make_coord() : () -> !cute.coord<"42">
      cute.memref.store(%rmem_3, %coord_46, %52) : (!memref_rmem_f16, !cute.coord<"42">, f16) -> ()
      %53 = vector.extract %9[43] : f16 from vector<128xf16>
      %coord_47 = cute.make_coord() : () -> !cute.coord<"43">
      cute.memref.store(%rmem_3, %coord_47, %53) : (!memref_rmem_f16, !cute.coord<"43">, f16) -> ()
      %54 = vector.extract %9[44] : f16 from vector<128xf16>
      %coord_48 = cute.make_coord() : () -> !cute.coord<"44">
      cute.memref.store(%rmem_3, %coord_48, %54) : (!memref_rmem_f16, !cute.coord<"44">, f16) -> ()
      %55 = vector.extract %9[45] : f16 from vector<128xf16>
      %coord_49 = cute.make_coord() : () -> !cute.coord<"45">
      cute.memref.store(%rmem_3, %coord_49, %55) : (!memref_rmem_f16, !cute.coord<"45">, f16) -> ()
      %56 = vector.extract %9[46] : f16 from vector<128xf16>
      %coord_50 = cute.make_coord() : () -> !cute.coord<"46">
      cute.memref.store(%rmem_3, %coord_50, %56) : (!memref_rmem_f16, !cute.coord<"46">, f16) -> ()
      %57 = vector.extract %9[47] : f16 from vector<128xf16>
      %coord_51 = cute.make_coord() : () -> !cute.coord<"47">
      cute.memref.store(%rmem_3, %coord_51, %57) : (!memref_rmem_f16, !cute.coord<"47">, f16) -> ()
      %58 = vector.extract %9[48] : f16 from vector<128xf16>
      %coord_52 = cute.make_coord() : () -> !cute.coord<"48">
      cute.memref.store(%rmem_3, %coord_52, %58) : (!memref_rmem_f16, !cute.coord<"48">, f16) -> ()
      %59 = vector.extract %9[49] : f16 from vector<128xf16>
      %coord_53 = cute.make_coord() : () -> !cute.coord<"49">
      cute.memref.store(%rmem_3, %coord_53, %59) : (!memref_rmem_f16, !cute.coord<"49">, f16) -> ()
      %60 = vector.extract %9[50] : f16 from vector<128xf16>
      %coord_54 = cute.make_coord() : () -> !cute.coord<"50">
      cute.memref.store(%rmem_3, %coord_54, %60) : (!memref_rmem_f16, !cute.coord<"50">, f16) -> ()
      %61 = vector.extract %9[51] : f16 from vector<128xf16>
      %coord_55 = cute.make_coord() : () -> !cute.coord<"51">
      cute.memref.store(%rmem_3, %coord_55, %61) : (!memref_rmem_f16, !cute.coord<"51">, f16) -> ()
      %62 = vector.extract %9[52] : f16 from vector<128xf16>
      %coord_56 = cute.make_coord() : () -> !cute.coord<"52">
      cute.memref.store(%rmem_3, %coord_56, %62) : (!memref_rmem_f16, !cute.coord<"52">, f16) -> ()
      %63 = vector.extract %9[53] : f16 from vector<128xf16>
      %coord_57 = cute.make_coord() : () -> !cute.coord<"53">
      cute.memref.store(%rmem_3, %coord_57, %63) : (!memref_rmem_f16, !cute.coord<"53">, f16) -> ()
      %64 = vector.extract %9[54] : f16 from vector<128xf16>
      %coord_58 = cute.make_coord() : () -> !cute.coord<"54">
      cute.memref.store(%rmem_3, %coord_58, %64) : (!memref_rmem_f16, !cute.coord<"54">, f16) -> ()
      %65 = vector.extract %9[55] : f16 from vector<128xf16>
      %coord_59 = cute.make_coord() : () -> !cute.coord<"55">
      cute.memref.store(%rmem_3, %coord_59, %65) : (!memref_rmem_f16, !cute.coord<"55">, f16) -> ()
      %66 = vector.extract %9[56] : f16 from vector<128xf16>
      %coord_60 = cute.make_coord() : () -> !cute.coord<"56">
      cute.memref.store(%rmem_3, %coord_60, %66) : (!memref_rmem_f16, !cute.coord<"56">, f16) -> ()
      %67 = vector.extract %9[57] : f16 from vector<128xf16>
      %coord_61 = cute.make_coord() : () -> !cute.coord<"57">
      cute.memref.store(%rmem_3, %coord_61, %67) : (!memref_rmem_f16, !cute.coord<"57">, f16) -> ()
      %68 = vector.extract %9[58] : f16 from vector<128xf16>
      %coord_62 = cute.make_coord() : () -> !cute.coord<"58">
      cute.memref.store(%rmem_3, %coord_62, %68) : (!memref_rmem_f16, !cute.coord<"58">, f16) -> ()
      %69 = vector.extract %9[59] : f16 from vector<128xf16>
      %coord_63 = cute.make_coord() : () -> !cute.coord<"59">
      cute.memref.store(%rmem_3, %coord_63, %69) : (!memref_rmem_f16, !cute.coord<"59">, f16) -> ()
      %70 = vector.extract %9[60] : f16 from vector<128xf16>
      %coord_64 = cute.make_coord() : () -> !cute.coord<"60">
      cute.memref.store(%rmem_3, %coord_64, %70) : (!memref_rmem_f16, !cute.coord<"60">, f16) -> ()
      %71 = vector.extract %9[61] : f16 from vector<128xf16>
      %coord_65 = cute.make_coord() : () -> !cute.coord<"61">
      cute.memref.store(%rmem_3, %coord_65, %71) : (!memref_rmem_f16, !cute.coord<"61">, f16) -> ()
      %72 = vector.extract %9[62] : f16 from vector<128xf16>
      %coord_66 = cute.make_coord() : () -> !cute.coord<"62">
      cute.memref.store(%rmem_3, %coord_66, %72) : (!memref_rmem_f16, !cute.coord<"62">, f16) -> ()
      %73 = vector.extract %9[63] : f16 from vector<128xf16>
      %coord_67 = cute.make_coord() : () -> !cute.coord<"63">
      cute.memref.store(%rmem_3, %coord_67, %73) : (!memref_rmem_f16, !cute.coord<"63">, f16) -> ()
      %74 = vector.extract %9[64] : f16 from vector<128xf16>
      %coord_68 = cute.make_coord() : () -> !cute.coord<"64">
      cute.memref.store(%rmem_3, %coord_68, %74) : (!memref_rmem_f16, !cute.coord<"64">, f16) -> ()
      %75 = vector.extract %9[65] : f16 from vector<128xf16>
      %coord_69 = cute.make_coord() : () -> !cute.coord<"65">
      cute.memref.store(%rmem_3, %coord_69, %75) : (!memref_rmem_f16, !cute.coord<"65">, f16) -> ()
      %76 = vector.extract %9[66] : f16 from vector<128xf16>
      %coord_70 = cute.make_coord() : () -> !cute.coord<"66">
      cute.memref.store(%rmem_3, %coord_70, %76) : (!memref_rmem_f16, !cute.coord<"66">, f16) -> ()
      %77 = vector.extract %9[67] : f16 from vector<128xf16>
      %coord_71 = cute.make_coord() : () -> !cute.coord<"67">
      cute.memref.store(%rmem_3, %coord_71, %77) : (!memref_rmem_f16, !cute.coord<"67">, f16) -> ()
      %78 = vector.extract %9[68] : f16 from vector<128xf16>
      %coord_72 = cute.make_coord() : () -> !cute.coord<"68">
      cute.memref.store(%rmem_3, %coord_72, %78) : (!memref_rmem_f16, !cute.coord<"68">, f16) -> ()
      %79 = vector.extract %9[69] : f16 from vector<128xf16>
      %coord_73 = cute.make_coord() : () -> !cute.coord<"69">
      cute.memref.store(%rmem_3, %coord_73, %79) : (!memref_rmem_f16, !cute.coord<"69">, f16) -> ()
      %80 = vector.extract %9[70] : f16 from vector<128xf16>
      %coord_74 = cute.make_coord() : () -> !cute.coord<"70">
      cute.memref.store(%rmem_3, %coord_74, %80) : (!memref_rmem_f16, !cute.coord<"70">, f16) -> ()
      %81 = vector.extract %9[71] : f16 from vector<128xf16>
      %coord_75 = cute.make_coord() : () -> !cute.coord<"71">
      cute.memref.store(%rmem_3, %coord_75, %81) : (!memref_rmem_f16, !cute.coord<"71">, f16) -> ()
      %82 = vector.extract %9[72] : f16 from vector<128xf16>
      %coord_76 = cute.make_coord() : () -> !cute.coord<"72">
      cute.memref.store(%rmem_3, %coord_76, %82) : (!memref_rmem_f16, !cute.coord<"72">, f16) -> ()
      %83 = vector.extract %9[73] : f16 from vector<128xf16>
      %coord_77 = cute.make_coord() : () -> !cute.coord<"73">
      cute.memref.store(%rmem_3, %coord_77, %83) : (!memref_rmem_f16, !cute.coord<"73">, f16) -> ()
      %84 = vector.extract %9[74] : f16 from vector<128xf16>
      %coord_78 = cute.make_coord() : () -> !cute.coord<"74">
      cute.memref.store(%rmem_3, %coord_78, %84) : (!memref_rmem_f16, !cute.coord<"74">, f16) -> ()
      %85 = vector.extract %9[75] : f16 from vector<128xf16>
      %coord_79 = cute.make_coord() : () -> !cute.coord<"75">
      cute.memref.store(%rmem_3, %coord_79, %85) : (!memref_rmem_f16, !cute.coord<"75">, f16) -> ()
      %86 = vector.extract %9[76] : f16 from vector<128xf16>
      %coord_80 = cute.make_coord() : () -> !cute.coord<"76">
      cute.memref.store(%rmem_3, %coord_80, %86) : (!memref_rmem_f16, !cute.coord<"76">, f16) -> ()
      %87 = vector.extract %9[77] : f16 from vector<128xf16>
      %coord_81 = cute.make_coord() : () -> !cute.coord<"77">
      cute.memref.store(%rmem_3, %coord_81, %87) : (!memref_rmem_f16, !cute.coord<"77">, f16) -> ()
      %88 = vector.extract %9[78] : f16 from vector<128xf16>
      %coord_82 = cute.make_coord() : () -> !cute.coord<"78">
      cute.memref.store(%rmem_3, %coord_82, %88) : (!memref_rmem_f16, !cute.coord<"78">, f16) -> ()
      %89 = vector.extract %9[79] : f16 from vector<128xf16>
      %coord_83 = cute.make_coord() : () -> !cute.coord<"79">
      cute.memref.store(%rmem_3, %coord_83, %89) : (!memref_rmem_f16, !cute.coord<"79">, f16) -> ()
      %90 = vector.extract %9[80] : f16 from vector<128xf16>
      %coord_84 = cute.make_coord() : () -> !cute.coord<"80">
      cute.memref.store(%rmem_3, %coord_84, %90) : (!memref_rmem_f16, !cute.coord<"80">, f16) -> ()
      %91 = vector.extract %9[81] : f16 from vector<128xf16>
      %coord_85 = cute.make_coord() : () -> !cute.coord<"81">
      cute.memref.store(%rmem_3, %coord_85, %91) : (!memref_rmem_f16, !cute.coord<"81">, f16) -> ()
      %92 = vector.extract %9[82] : f16 from vector<128xf16>
      %coord_86 = cute.make_coord() : () -> !cute.coord<"82">
      cute.memref.store(%rmem_3, %coord_86, %92) : (!memref_rmem_f16, !cute.coord<"82">, f16) -> ()
      %93 = vector.extract %9[83] : f16 from vector<128xf16>
      %coord_87 = cute.make_coord() : () -> !cute.coord<"83">
      cute.memref.store(%rmem_3, %coord_87, %93) : (!memref_rmem_f16, !cute.coord<"83">, f16) -> ()
      %94 = vector.extract %9[84] : f16 from vector<128xf16>
      %coord_88 = cute.make_coord() : () -> !cute.coord<"84">
      cute.memref.store(%rmem_3, %coord_88, %94) : (!memref_rmem_f16, !cute.coord<"84">, f16) -> ()
      %95 = vector.extract %9[85] : f16 from vector<128xf16>
      %coord_89 = cute.make_coord() : () -> !cute.coord<"85">
      cute.memref.store(%rmem_3, %coord_89, %95) : (!memref_rmem_f16, !cute.coord<"85">, f16) -> ()
      %96 = vector.extract %9[86] : f16 from vector<128xf16>
      %coord_90 = cute.make_coord() : () -> !cute.coord<"86">
      cute.memref.store(%rmem_3, %coord_90, %96) : (!memref_rmem_f16, !cute.coord<"86">, f16) -> ()
      %97 = vector.extract %9[87] : f16 from vector<128xf16>
      %coord_91 = cute.make_coord() : () -> !cute.coord<"87">
      cute.memref.store(%rmem_3, %coord_91, %97) : (!memref_rmem_f16, !cute.coord<"87">, f16) -> ()
      %98 = vector.extract %9[88] : f16 from vector<128xf16>
      %coord_92 = cute.make_coord() : () -> !cute.coord<"88">
      cute.memref.store(%rmem_3, %coord_92, %98) : (!memref_rmem_f16, !cute.coord<"88">, f16) -> ()
      %99 = vector.extract %9[89] : f16 from vector<128xf16>
      %coord_93 = cute.make_coord() : () -> !cute.coord<"89">
      cute.memref.store(%rmem_3, %coord_93, %99) : (!memref_rmem_f16, !cute.coord<"89">, f16) -> ()
      %100 = vector.extract %9[90] : f16 from vector<128xf16>
      %coord_94 = cute.make_coord() : () -> !cute.coord<"90">
      cute.memref.store(%rmem_3, %coord_94, %100) : (!memref_rmem_f16, !cute.coord<"90">, f16) -> ()
      %101 = vector.extract %9[91] : f16 from vector<128xf16>
      %coord_95 = cute.make_coord() : () -> !cute.coord<"91">
      cute.memref.store(%rmem_3, %coord_95, %101) : (!memref_rmem_f16, !cute.coord<"91">, f16) -> ()
      %102 = vector.extract %9[92] : f16 from vector<128xf16>
      %coord_96 = cute.make_coord() : () -> !cute.coord<"92">
      cute.memref.store(%rmem_3, %coord_96, %102) : (!memref_rmem_f16, !cute.coord<"92">, f16) -> ()
      %103 = vector.extract %9[93] : f16 from vector<128xf16>
      %coord_97 = cute.make_coord() : () -> !cute.coord<"93">
      cute.memref.store(%rmem_3, %coord_97, %103) : (!memref_rmem_f16, !cute.coord<"93">, f16) -> ()
      %104 = vector.extract %9[94] : f16 from vector<128xf16>
      %coord_98 = cute.make_coord() : () -> !cute.coord<"94">
      cute.memref.store(%rmem_3, %coord_98, %104) : (!memref_rmem_f16, !cute.coord<"94">, f16) -> ()
      %105 = vector.extract %9[95] : f16 from vector<128xf16>
      %coord_99 = cute.make_coord() : () -> !cute.coord<"95">
      cute.memref.store(%rmem_3, %coord_99, %105) : (!memref_rmem_f16, !cute.coord<"95">, f16) -> ()
      %106 = vector.extract %9[96] : f16 from vector<128xf16>
      %coord_100 = cute.make_coord() : () -> !cute.coord<"96">
      cute.memref.store(%rmem_3, %coord_100, %106) : (!memref_rmem_f16, !cute.coord<"96">, f16) -> ()
      %107 = vector.extract %9[97] : f16 from vector<128xf16>
      %coord_101 = cute.make_coord() : () -> !cute.coord<"97">
      cute.memref.store(%rmem_3, %coord_101, %107) : (!memref_rmem_f16, !cute.coord<"97">, f16) -> ()
      %108 = vector.extract %9[98] : f16 from vector<128xf16>
      %coord_102 = cute.make_coord() : () -> !cute.coord<"98">
      cute.memref.store(%rmem_3, %coord_102, %108) : (!memref_rmem_f16, !cute.coord<"98">, f16) -> ()
      %109 = vector.extract %9[99] : f16 from vector<128xf16>
      %coord_103 = cute.make_coord() : () -> !cute.coord<"99">
      cute.memref.store(%rmem_3, %coord_103, %109) : (!memref_rmem_f16, !cute.coord<"99">, f16) -> ()
      %110 = vector.extract %9[100] : f16 from vector<128xf16>
      %coord_104 = cute.make_coord() : () -> !cute.coord<"100">
      cute.memref.store(%rmem_3, %coord_104, %110) : (!memref_rmem_f16, !cute.coord<"100">, f16) -> ()
      %111 = vector.extract %9[101] : f16 from vector<128xf16>
      %coord_105 = cute.make_coord() : () -> !cute.coord<"101">
      cute.memref.store(%rmem_3, %coord_105, %111) : (!memref_rmem_f16, !cute.coord<"101">, f16) -> ()
      %112 = vector.extract %9[102] : f16 from vector<128xf16>
      %coord_106 = cute.make_coord() : () -> !cute.coord<"102">
      cute.memref.store(%rmem_3, %coord_106, %112) : (!memref_rmem_f16, !cute.coord<"102">, f16) -> ()
      %113 = vector.extract %9[103] : f16 from vector<128xf16>
      %coord_107 = cute.make_coord() : () -> !cute.coord<"103">
      cute.memref.store(%rmem_3, %coord_107, %113) : (!memref_rmem_f16, !cute.coord<"103">, f16) -> ()
      %114 = vector.extract %9[104] : f16 from vector<128xf16>
      %coord_108 = cute.make_coord() : () -> !cute.coord<"104">
      cute.memref.store(%rmem_3, %coord_108, %114) : (!memref_rmem_f16, !cute.coord<"104">, f16) -> ()
      %115 = vector.extract %9[105] : f16 from vector<128xf16>
      %coord_109 = cute.make_coord() : () -> !cute.coord<"105">
      cute.memref.store(%rmem_3, %coord_109, %115) : (!memref_rmem_f16, !cute.coord<"105">, f16) -> ()
      %116 = vector.extract %9[106] : f16 from vector<128xf16>
      %coord_110 = cute.make_coord() : () -> !cute.coord<"106">
      cute.memref.store(%rmem_3, %coord_110, %116) : (!memref_rmem_f16, !cute.coord<"106">, f16) -> ()
      %117 = vector.extract %9[107] : f16 from vector<128xf16>
      %coord_111 = cute.make_coord() : () -> !cute.coord<"107">
      cute.memref.store(%rmem_3, %coord_111, %117) : (!memref_rmem_f16, !cute.coord<"107">, f16) -> ()
      %118 = vector.extract %9[108] : f16 from vector<128xf16>
      %coord_112 = cute.make_coord() : () -> !cute.coord<"108">
      cute.memref.store(%rmem_3, %coord_112, %118) : (!memref_rmem_f16, !cute.coord<"108">, f16) -> ()
      %119 = vector.extract %9[109] : f16 from vector<128xf16>
      %coord_113 = cute.make_coord() : () -> !cute.coord<"109">
      cute.memref.store(%rmem_3, %coord_113, %119) : (!memref_rmem_f16, !cute.coord<"109">, f16) -> ()
      %120 = vector.extract %9[110] : f16 from vector<128xf16>
      %coord_114 = cute.make_coord() : () -> !cute.coord<"110">
      cute.memref.store(%rmem_3, %coord_114, %120) : (!memref_rmem_f16, !cute.coord<"110">, f16) -> ()
      %121 = vector.extract %9[111] : f16 from vector<128xf16>
      %coord_115 = cute.make_coord() : () -> !cute.coord<"111">
      cute.memref.store(%rmem_3, %coord_115, %121) : (!memref_rmem_f16, !cute.coord<"111">, f16) -> ()
      %122 = vector.extract %9[112] : f16 from vector<128xf16>
      %coord_116 = cute.make_coord() : () -> !cute.coord<"112">
      cute.memref.store(%rmem_3, %coord_116, %122) : (!memref_rmem_f16, !cute.coord<"112">, f16) -> ()
      %123 = vector.extract %9[113] : f16 from vector<128xf16>
      %coord_117 = cute.make_coord() : () -> !cute.coord<"113">
      cute.memref.store(%rmem_3, %coord_117, %123) : (!memref_rmem_f16, !cute.coord<"113">, f16) -> ()
      %124 = vector.extract %9[114] : f16 from vector<128xf16>
      %coord_118 = cute.make_coord() : () -> !cute.coord<"114">
      cute.memref.store(%rmem_3, %coord_118, %124) : (!memref_rmem_f16, !cute.coord<"114">, f16) -> ()
      %125 = vector.extract %9[115] : f16 from vector<128xf16>
      %coord_119 = cute.make_coord() : () -> !cute.coord<"115">
      cute.memref.store(%rmem_3, %coord_119, %125) : (!memref_rmem_f16, !cute.coord<"115">, f16) -> ()
      %126 = vector.extract %9[116] : f16 from vector<128xf16>
      %coord_120 = cute.make_coord() : () -> !cute.coord<"116">
      cute.memref.store(%rmem_3, %coord_120, %126) : (!memref_rmem_f16, !cute.coord<"116">, f16) -> ()
      %127 = vector.extract %9[117] : f16 from vector<128xf16>
      %coord_121 = cute.make_coord() : () -> !cute.coord<"117">
      cute.memref.store(%rmem_3, %coord_121, %127) : (!memref_rmem_f16, !cute.coord<"117">, f16) -> ()
      %128 = vector.extract %9[118] : f16 from vector<128xf16>
      %coord_122 = cute.make_coord() : () -> !cute.coord<"118">
      cute.memref.store(%rmem_3, %coord_122, %128) : (!memref_rmem_f16, !cute.coord<"118">, f16) -> ()
      %129 = vector.extract %9[119] : f16 from vector<128xf16>
      %coord_123 = cute.make_coord() : () -> !cute.coord<"119">
      cute.memref.store(%rmem_3, %coord_123, %129) : (!memref_rmem_f16, !cute.coord<"119">, f16) -> ()
      %130 = vector.extract %9[120] : f16 from vector<128xf16>
      %coord_124 = cute.make_coord() : () -> !cute.coord<"120">
      cute.memref.store(%rmem_3, %coord_124, %130) : (!memref_rmem_f16, !cute.coord<"120">, f16) -> ()
      %131 = vector.extract %9[121] : f16 from vector<128xf16>
      %coord_125 = cute.make_coord() : () -> !cute.coord<"121">
      cute.memref.store(%rmem_3, %coord_125, %131) : (!memref_rmem_f16, !cute.coord<"121">, f16) -> ()
      %132 = vector.extract %9[122] : f16 from vector<128xf16>
      %coord_126 = cute.make_coord() : () -> !cute.coord<"122">
      cute.memref.store(%rmem_3, %coord_126, %132) : (!memref_rmem_f16, !cute.coord<"122">, f16) -> ()
      %133 = vector.extract %9[123] : f16 from vector<128xf16>
      %coord_127 = cute.make_coord() : () -> !cute.coord<"123">
      cute.memref.store(%rmem_3, %coord_127, %133) : (!memref_rmem_f16, !cute.coord<"123">, f16) -> ()
      %134 = vector.extract %9[124] : f16 from vector<128xf16>
      %coord_128 = cute.make_coord() : () -> !cute.coord<"124">
      cute.memref.store(%rmem_3, %coord_128, %134) : (!memref_rmem_f16, !cute.coord<"124">, f16) -> ()
      %135 = vector.extract %9[125] : f16 from vector<128xf16>
      %coord_129 = cute.make_coord() : () -> !cute.coord<"125">
      cute.memref.store(%rmem_3, %coord_129, %135) : (!memref_rmem_f16, !cute.coord<"125">, f16) -> ()
      %136 = vector.extract %9[126] : f16 from vector<128xf16>
      %coord_130 = cute.make_coord() : () -> !cute.coord<"126">
      cute.memref.store(%rmem_3, %coord_130, %136) : (!memref_rmem_f16, !cute.coord<"126">, f16) -> ()
      %137 = vector.extract %9[127] : f16 from vector<128xf16>
      %coord_131 = cute.make_coord() : () -> !cute.coord<"127">
      cute.memref.store(%rmem_3, %coord_131, %137) : (!memref_rmem_f16, !cute.coord<"127">, f16) -> ()
      %lay_132 = cute.get_layout(%rmem_3) : !memref_rmem_f16
      %rinv = cute.right_inverse(%lay) : (!cute.layout<"((1,128)):((0,1))">) -> !cute.layout<"128:1">
      %138 = cute.composition(%lay_132, %rinv) : (!cute.layout<"((1,128)):((0,1))">, !cute.layout<"128:1">) -> !cute.layout<"128:1">
      %coalesce = cute.coalesce(%138) : (!cute.layout<"128:1">) -> !cute.layout<"128:1">
      %139 = cute.composition(%rinv, %coalesce) : (!cute.layout<"128:1">, !cute.layout<"128:1">) -> !cute.layout<"128:1">
      %div_133 = cute.logical_divide(%rmem_3, %139) : !memref_rmem_f16, !cute.layout<"128:1">
      %div_134 = cute.logical_divide(%slice_2, %139) : !memref_gmem_f16_2, !cute.layout<"128:1">
      %shape = cute.make_shape() : () -> !cute.shape<"8">
      %lay_135 = cute.make_layout(%shape) : !cute.layout<"8:1">
      %div_136 = cute.logical_divide(%div_133, %lay_135) : !memref_rmem_f16_1, !cute.layout<"8:1">
      %div_137 = cute.logical_divide(%div_134, %lay_135) : !memref_gmem_f16_3, !cute.layout<"8:1">
      %atom_138 = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f16, 128 b>
      cute.copy(%atom_138, %div_136, %div_137) : (!cute_nvgpu.atom.universal_copy<f16, 128 b>, !memref_rmem_f16_2, !memref_gmem_f16_4)
      return
    }
  }
  func.func @cutlass_launch_scale_FakeTensorInt8642562561_FakeTensorFloat16642562561_FakeStream(%arg0: !memref_gmem_i8, %arg1: !memref_gmem_f16, %arg2: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c166912_i64 = arith.constant 166912 : i64
    %cst = arith.constant 5.000000e-01 : f32
    %0 = cute.kernel_smem_size @kernels::@kernel_cutlass_scale_kernel_tensorptri8gmemalign16o642562561__tensorptrf16gmemalign16o642562561_0 : i64
    %1 = arith.cmpi sgt, %0, %c166912_i64 : i64
    scf.if %1 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_scale_kernel_tensorptri8gmemalign16o642562561__tensorptrf16gmemalign16o642562561_0' launch shared memory exceeds current GPU arch sm_80 allowed. Allocated: {} bytes. Max: 166912 bytes.\0A\0A", %0) : i64
    }
    %2 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c64_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %0, gridDim = (%c2_i32, %c1_i32, %c1_i32), stream = %arg2) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%2] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%2] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %3 = cuda.launch_ex @kernels::@kernel_cutlass_scale_kernel_tensorptri8gmemalign16o642562561__tensorptrf16gmemalign16o642562561_0<%2> (%arg0, %cst, %arg1) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!memref_gmem_i8, f32, !memref_gmem_f16) -> !cuda.result
    %4 = cuda.cast %3 : !cuda.result -> i32
    cuda.return_if_error %4 : i32
    return %c0_i32 : i32
  }
}

