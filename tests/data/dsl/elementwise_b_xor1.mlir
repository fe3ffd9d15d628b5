// made by: python tests/dsl_elementwise_kernel.py tests/data/dsl/elementwise_b_xor1.mlir slices=b_xor1 (the CuTe DSL, CUTE_DSL_ARCH=sm_80, CUTE_DSL_KEEP=ir)
!copy_simt = !cute.tiled_copy<!cute_nvgpu.atom.universal_copy<f16>, layout_copy_tv = <"((32,4),(8,4)):((128,4),(16,1))">, tiler_mn = <"[16:1;256:1]">>
!memref_gmem_f16 = !cute.memref<f16, gmem, align<16>, "((16,256),(4,1)):((256,1),(4096,0))">
!memref_gmem_f16_1 = !cute.memref<f16, gmem, align<16>, "(16,256):(256,1)">
!memref_gmem_f16_2 = !cute.memref<f16, gmem, align<16>, "((1,(8,4)),1,1):((0,(1,256)),0,0)">
!memref_gmem_f16_3 = !cute.memref<f16, gmem, align<16>, "((1,(8,4)),(1,1)):((0,(1,256)),(0,0))">
!memref_gmem_f16_4 = !cute.memref<f16, gmem, align<16>, "(64,256):(256,1)">
!memref_rmem_f16 = !cute.memref<f16, rmem, align<32>, "((1,(8,4)),1,1):((0,(1,8)),0,0)">
!memref_rmem_f16_1 = !cute.memref<f16, rmem, align<32>, "((1,(8,4)),(1,1)):((0,(1,8)),(0,0))">
module attributes {gpu.container_module} {
  gpu.module @kernels {
    cuda.kernel @kernel_cutlass_add_kernel_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_0(%arg0: !memref_gmem_f16, %arg1: !memref_gmem_f16, %arg2: !memref_gmem_f16, %arg3: !cute.layout<"(4,32):(32,1)">, %arg4: !cute.layout<"(4,32):(32,1)">, %arg5: !cute.layout<"(4,8):(8,1)">) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin, non_portable_cluster_size_allowed = 1 : i32}, cute.kernel, cutlass_launch_facts = {cluster_launch = false, cooperative_launch = false, exact_block_dim = array<i64: 128, 1, 1>, exact_grid_dim = array<i64: 4, 1, 1>, schema_version = 1 : i64}, gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, smem.hint_smem_base_uniform, smem.partition_num = 2 : i32} {
      %c1_i32 = arith.constant 1 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %1 = nvvm.read.ptx.sreg.ctaid.x : i32
      %atom = cute.make_atom() : () -> !cute_nvgpu.atom.universal_copy<f16>
      %2 = cute.make_tiled_copy(%atom) : !copy_simt
      %3 = arith.xori %0, %c1_i32 : i32
      %coord = cute.make_coord(%1) : (i32) -> !cute.coord<"((_,_),?)">
      %slice = cute.slice(%arg0, %coord) : !memref_gmem_f16, !cute.coord<"((_,_),?)">
      %coord_0 = cute.make_coord(%0) : (i32) -> !cute.coord<"?">
      %src_partitioned = cute.tiled.copy.partition_S(%2, %slice, %coord_0) : (!copy_simt, !memref_gmem_f16_1, !cute.coord<"?">) -> !memref_gmem_f16_2
      %iter = cute.get_iter(%src_partitioned) : !memref_gmem_f16_2
      %slice_1 = cute.slice(%arg1, %coord) : !memref_gmem_f16, !cute.coord<"((_,_),?)">
      %coord_2 = cute.make_coord(%3) : (i32) -> !cute.coord<"?">
      %src_partitioned_3 = cute.tiled.copy.partition_S(%2, %slice_1, %coord_2) : (!copy_simt, !memref_gmem_f16_1, !cute.coord<"?">) -> !memref_gmem_f16_2
      %iter_4 = cute.get_iter(%src_partitioned_3) : !memref_gmem_f16_2
      %slice_5 = cute.slice(%arg2, %coord) : !memref_gmem_f16, !cute.coord<"((_,_),?)">
      %src_partitioned_6 = cute.tiled.copy.partition_S(%2, %slice_5, %coord_0) : (!copy_simt, !memref_gmem_f16_1, !cute.coord<"?">) -> !memref_gmem_f16_2
      %iter_7 = cute.get_iter(%src_partitioned_6) : !memref_gmem_f16_2
      %lay = cute.get_layout(%src_partitioned) : !memref_gmem_f16_2
      %rmem = cute.memref.alloca() : !memref_rmem_f16
      %iter_8 = cute.get_iter(%rmem) : !memref_rmem_f16
      %lay_9 = cute.get_layout(%src_partitioned_3) : !memref_gmem_f16_2
      %rmem_10 = cute.memref.alloca() : !memref_rmem_f16
      %iter_11 = cute.get_iter(%rmem_10) : !memref_rmem_f16
      %lay_12 = cute.get_layout(%src_partitioned_6) : !memref_gmem_f16_2
      %rmem_13 = cute.memref.alloca() : !memref_rmem_f16
      %iter_14 = cute.get_iter(%rmem_13) : !memref_rmem_f16
      %lay_15 = cute.get_layout(%rmem) : !memref_rmem_f16
      %shape = cute.make_shape() : () -> !cute.shape<"1">
      %lay_16 = cute.make_layout(%shape) : !cute.layout<"1:0">
      %append = cute.append_to_rank<2> (%lay, %lay_16) : !cute.layout<"((1,(8,4)),1,1):((0,(1,256)),0,0)">, !cute.layout<"1:0">
      %view = cute.make_view(%iter, %append) : !memref_gmem_f16_2
      %grouped = cute.group_modes(%view) <1, 3> : (!memref_gmem_f16_2) -> !memref_gmem_f16_3
      %append_17 = cute.append_to_rank<2> (%lay_15, %lay_16) : !cute.layout<"((1,(8,4)),1,1):((0,(1,8)),0,0)">, !cute.layout<"1:0">
      %view_18 = cute.make_view(%iter_8, %append_17) : !memref_rmem_f16
      %grouped_19 = cute.group_modes(%view_18) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      cute.copy(%atom, %grouped, %grouped_19) : (!cute_nvgpu.atom.universal_copy<f16>, !memref_gmem_f16_3, !memref_rmem_f16_1)
      %lay_20 = cute.get_layout(%rmem_10) : !memref_rmem_f16
      %append_21 = cute.append_to_rank<2> (%lay_9, %lay_16) : !cute.layout<"((1,(8,4)),1,1):((0,(1,256)),0,0)">, !cute.layout<"1:0">
      %view_22 = cute.make_view(%iter_4, %append_21) : !memref_gmem_f16_2
      %grouped_23 = cute.group_modes(%view_22) <1, 3> : (!memref_gmem_f16_2) -> !memref_gmem_f16_3
      %append_24 = cute.append_to_rank<2> (%lay_20, %lay_16) : !cute.layout<"((1,(8,4)),1,1):((0,(1,8)),0,0)">, !cute.layout<"1:0">
      %view_25 = cute.make_view(%iter_11, %append_24) : !memref_rmem_f16
      %grouped_26 = cute.group_modes(%view_25) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      cute.copy(%atom, %grouped_23, %grouped_26) : (!cute_nvgpu.atom.universal_copy<f16>, !memref_gmem_f16_3, !memref_rmem_f16_1)
      %4 = cute.memref.load_vec(%rmem) : (!memref_rmem_f16) -> vector<32xf16>
      %5 = cute.memref.load_vec(%rmem_10) : (!memref_rmem_f16) -> vector<32xf16>
      %6 = arith.addf %4, %5 : vector<32xf16>
      %lay_27 = cute.get_layout(%rmem_13) : !memref_rmem_f16
      cute.memref.store_vec(%6, %rmem_13) : (vector<32xf16>, !memref_rmem_f16) -> ()
      %append_28 = cute.append_to_rank<2> (%lay_27, %lay_16) : !cute.layout<"((1,(8,4)),1,1):((0,(1,8)),0,0)">, !cute.layout<"1:0">
      %view_29 = cute.make_view(%iter_14, %append_28) : !memref_rmem_f16
      %grouped_30 = cute.group_modes(%view_29) <1, 3> : (!memref_rmem_f16) -> !memref_rmem_f16_1
      %append_31 = cute.append_to_rank<2> (%lay_12, %lay_16) : !cute.layout<"((1,(8,4)),1,1):((0,(1,256)),0,0)">, !cute.layout<"1:0">
      %view_32 = cute.make_view(%iter_7, %append_31) : !memref_gmem_f16_2
      %grouped_33 = cute.group_modes(%view_32) <1, 3> : (!memref_gmem_f16_2) -> !memref_gmem_f16_3
      cute.copy(%atom, %grouped_30, %grouped_33) : (!cute_nvgpu.atom.universal_copy<f16>, !memref_rmem_f16_1, !memref_gmem_f16_3)
      return
    }
  }
  func.func @cutlass_launch_add_FakeTensorFloat16642562561_FakeTensorFloat16642562561_FakeTensorFloat16642562561_FakeStream(%arg0: !memref_gmem_f16_4, %arg1: !memref_gmem_f16_4, %arg2: !memref_gmem_f16_4, %arg3: !cuda.stream) -> i32 attributes {llvm.emit_c_interface} {
    %c0_i32 = arith.constant 0 : i32
    %c4_i32 = arith.constant 4 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c166912_i64 = arith.constant 166912 : i64
    %shape = cute.make_shape() : () -> !cute.shape<"(4,32)">
    %int_tuple = cute.make_int_tuple() : () -> !cute.int_tuple<"(1,0)">
    %lay = cute.make_ordered_layout(%shape, %int_tuple) : (!cute.shape<"(4,32)">, !cute.int_tuple<"(1,0)">) -> !cute.layout<"(4,32):(32,1)">
    %shape_0 = cute.make_shape() : () -> !cute.shape<"(4,8)">
    %lay_1 = cute.make_ordered_layout(%shape_0, %int_tuple) : (!cute.shape<"(4,8)">, !cute.int_tuple<"(1,0)">) -> !cute.layout<"(4,8):(8,1)">
    %tile = cute.make_tile() : () -> !cute.tile<"[16:1;256:1]">
    %div = cute.zipped_divide(%arg0, %tile) : !memref_gmem_f16_4, !cute.tile<"[16:1;256:1]">
    %div_2 = cute.zipped_divide(%arg1, %tile) : !memref_gmem_f16_4, !cute.tile<"[16:1;256:1]">
    %div_3 = cute.zipped_divide(%arg2, %tile) : !memref_gmem_f16_4, !cute.tile<"[16:1;256:1]">
    %0 = cute.kernel_smem_size @kernels::@kernel_cutlass_add_kernel_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_0 : i64
    %1 = arith.cmpi sgt, %0, %c166912_i64 : i64
    scf.if %1 {
      cute.print("\0AError: kernel '@kernels::@kernel_cutlass_add_kernel_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_0' launch shared memory exceeds current GPU arch sm_80 allowed. Allocated: {} bytes. Max: 166912 bytes.\0A\0A", %0) : i64
    }
    %2 = cuda.launch_cfg.create<max_attrs = 17 : i32> (blockDim = (%c128_i32, %c1_i32, %c1_i32), dynamicSmemBytes = %0, gridDim = (%c4_i32, %c1_i32, %c1_i32), stream = %arg3) : i32, i32, i32, i64, i32, i32, i32, !cuda.stream -> !cuda.launch_cfg<max_attrs = 17>
    cuda.launch_cfg.programmatic_stream_serialization_allowed[%2] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    cuda.launch_cfg.cooperative[%2] %c0_i32 : !cuda.launch_cfg<max_attrs = 17>, i32
    %3 = cuda.launch_ex @kernels::@kernel_cutlass_add_kernel_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_tensorptrf16gmemalign16o1625641256140960_0<%2> (%div, %div_2, %div_3, %lay, %lay, %lay_1) {assume_kernel_attr = #cuda.assume_kernel_attr<true>} : !cuda.launch_cfg<max_attrs = 17>, (!memref_gmem_f16, !memref_gmem_f16, !memref_gmem_f16, !cute.layout<"(4,32):(32,1)">, !cute.layout<"(4,32):(32,1)">, !cute.layout<"(4,8):(8,1)">) -> !cuda.result
    %4 = cuda.cast %3 : !cuda.result -> i32
    cuda.return_if_error %4 : i32
    return %c0_i32 : i32
  }
}

