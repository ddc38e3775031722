use super::*;

fn top(text: &str) -> String {
    let ex = explain(text);
    top_cause(&ex).map(|c| c.id.clone()).unwrap_or_default()
}

#[test]
fn every_pattern_compiles_and_every_cause_is_a_known_id() {
    assert_eq!(compiled().len(), RULES.len());
    assert!(compiled().iter().all(|c| c.re().is_some()));
    assert!(rule_set().is_some_and(|s| s.len() == RULES.len()));
    for r in RULES {
        assert_eq!(
            compiled()
                .iter()
                .find(|c| c.rule.id == r.id)
                .map(|c| c.hints().len()),
            Some(r.hints.len()),
            "{}",
            r.id
        );
        for k in r.causes {
            assert!(known_id(k.id), "{} names unknown {}", r.id, k.id);
        }
        for h in r.hints {
            assert!(
                r.causes.iter().any(|k| k.id == h.cause),
                "{}: hint for {} which is not among its causes",
                r.id,
                h.cause
            );
        }
    }
    for x in [
        13, 31, 43, 45, 48, 62, 63, 64, 74, 79, 92, 94, 95, 119, 120, 7,
    ] {
        for k in rules::xid_causes(x) {
            assert!(known_id(k.id), "xid {x}: {}", k.id);
        }
    }
}

/// The ids of shared/reference/finding-ids.md (v1), plus those this crate adds.
pub fn known_id(id: &str) -> bool {
    crate::explain::KNOWN_IDS.contains(&id)
}

#[test]
fn samples_rank_the_right_cause_first() {
    let cases: &[(&str, &str)] = &[
        ("RuntimeError: CUDA error: invalid configuration argument\nCUDA kernel errors might be asynchronously reported at some other API call", "workload.grid_limit"),
        ("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasLtMatmulAlgoGetHeuristic( ltHandle, computeDesc.descriptor(), ...)`", "workload.cublas_alloc"),
        ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`", "workload.cublas_alloc"),
        ("UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\nRuntimeError: CUDA error: no kernel image is available for execution on the device", "torch.arch_unsupported"),
        ("  File \"/usr/lib/python3/site-packages/flash_attn/flash_attn_interface.py\", line 90\n    out = flash_attn_2_cuda.fwd(q, k, v)\nRuntimeError: CUDA error: no kernel image is available for execution on the device", "ext.arch_unsupported"),
        ("UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver", "driver.too_old_for_torch"),
        ("$ CUDA_VISIBLE_DEVICES=1 python train.py\nRuntimeError: CUDA error: invalid device ordinal\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.", "env.visible_devices_invalid"),
        ("RuntimeError: CUDA error: invalid device ordinal\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.", "workload.library_bug"),
        ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 13.06 MiB is free. Including non-PyTorch memory, this process has 23.62 GiB memory in use.", "workload.out_of_memory"),
        ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.06 GiB is free. Process 1234 has 60.10 GiB memory in use. Including non-PyTorch memory, this process has 18.00 GiB memory in use.", "gpu.busy"),
        ("RuntimeError: CUDA error: an illegal memory access was encountered", "workload.illegal_address"),
        ("../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.\nRuntimeError: CUDA error: device-side assert triggered", "workload.device_assert"),
        ("Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.183", "driver.library_mismatch"),
        ("RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu. error 802: system not yet initialized", "driver.fabric_manager"),
        ("cudaGetDeviceCount returned 803 -> system has unsupported display driver / cuda driver combination", "driver.compat_package_mismatch"),
        ("CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW", "driver.forward_compat_unsupported"),
        ("UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero. (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.) after resume from suspend", "driver.uvm_unavailable"),
        ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx", "host.no_nvidia_gpu"),
        ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\nI have a GeForce GTX 1660 in this box", "driver.not_installed"),
        ("AssertionError: Torch not compiled with CUDA enabled", "torch.cpu_only"),
        ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED", "workload.out_of_memory"),
        ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\nLast error:\nError while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)", "host.shm_small"),
        ("RuntimeError: CUDA error: operation not permitted when stream is capturing", "workload.stream_capture"),
        ("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "gpu.compute_mode_restricted"),
        ("ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "ext.abi_mismatch"),
        ("ImportError: /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister", "torch.wheel_deps_mismatch"),
        ("nvcc fatal   : Unsupported gpu architecture 'compute_89'", "toolkit.arch_unsupported"),
        ("[ 1234.567] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.", "gpu.lost"),
        ("NVRM: Xid (PCI:0000:07:00): 48, pid=999, DBE (double bit error) ECC error", "gpu.ecc_errors"),
        ("NVRM: Xid (PCI:0000:07:00): 31, pid=1200, name=python3, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f_00000000", "workload.illegal_address"),
        ("NVRM: Xid (PCI:0000:41:00): 119, pid=2113, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU0 GSP!", "gpu.xid"),
        ("RuntimeError: Unrecognized CachingAllocator option: expandable_segments:true", "env.alloc_conf_invalid"),
        ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedExFix(handle, opa, opb, m, n, k, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ...)`", "torch.arch_unsupported"),
        ("../aten/src/ATen/native/cuda/Indexing.cu:1141: indexSelectLargeIndex: block: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\nRuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`", "workload.device_assert"),
        ("RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`", "torch.libs_shadowed"),
        ("torch.distributed.DistBackendError: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.", "workload.nccl"),
        ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.", "workload.library_bug"),
        ("RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version (8, 5, 0). PyTorch already comes bundled with cuDNN. One option to resolving this error is to ensure PyTorch can find the bundled cuDNN. Looks like your LD_LIBRARY_PATH contains incompatible version of cudnn", "torch.libs_shadowed"),
        // PyTorch's wrapper alone does not say who made the PTX; every field case of this text
        // was a newer toolkit's (research-2026-11i rsh-err-758/759).
        ("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.", "driver.too_old_for_toolkit"),
        ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.", "driver.module_not_loaded"),
        ("RuntimeError: CUDA error: unknown error\nCUDA kernel errors might be asynchronously reported at some other API call", "driver.uvm_unavailable"),
        ("NVRM: Xid (PCI:0000:18:00): 13, pid=4242, name=python, Graphics SM Warp Exception on (GPC 0, TPC 0, SM 0): Out Of Range Address", "workload.illegal_address"),
        ("NVRM: Xid (PCI:0000:18:00): 43, pid=4242, name=python, Ch 00000010", "workload.illegal_address"),
        // The catalogue (compat-matrix/xid.toml) files 45 under the application's faults.
        ("NVRM: Xid (PCI:0000:18:00): 45, pid=4242, name=python, Ch 00000010", "workload.illegal_address"),
        ("NVRM: Xid (PCI:0000:18:00): 62, pid='<unknown>', name=<unknown>, 0000d3c6 0000d3aa", "gpu.xid"),
        ("NVRM: Xid (PCI:0000:18:00): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row marked for remapping, reset gpu to activate.", "gpu.row_remap"),
        ("NVRM: Xid (PCI:0000:18:00): 64, pid='<unknown>', name=<unknown>, Row Remapper: row remap failure", "gpu.row_remap"),
        ("NVRM: Xid (PCI:0000:18:00): 74, pid='<unknown>', name=<unknown>, NVLink: fatal error detected on link 3", "gpu.xid"),
        ("NVRM: Xid (PCI:0000:18:00): 92, pid='<unknown>', name=<unknown>, High single-bit ECC error rate", "gpu.ecc_errors"),
        ("NVRM: Xid (PCI:0000:18:00): 94, pid=77, name=python, Contained: SM (0x1). RST: No, D-RST: No", "gpu.ecc_errors"),
        ("NVRM: Xid (PCI:0000:18:00): 95, pid=77, name=python, Uncontained: LTC TAG (0x2,0x0). RST: Yes, D-RST: No", "gpu.ecc_errors"),
        ("NVRM: Xid (PCI:0000:18:00): 120, pid='<unknown>', name=<unknown>, GSP task timeout @ pc:0x..., partition:0#1", "gpu.xid"),
        ("RuntimeError: CUDA error: operation failed due to a previous error during capture", "workload.stream_capture"),
        ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method\nCUDA error: CUDA-capable device(s) is/are busy or unavailable\nGPU compute mode Exclusive_Process", "gpu.compute_mode_restricted"),
    ];
    let mut wrong = Vec::new();
    for (text, want) in cases {
        let got = top(text);
        if got != *want {
            wrong.push(format!("{want} <- {got}: {text}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn spans_point_at_the_message_and_numbers_are_read() {
    let text = "some log\nRuntimeError: CUDA error: no kernel image is available for execution on the device\nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.";
    let ex = explain(text);
    assert_eq!(ex.matches.len(), 2);
    let m = &ex.matches[0];
    assert_eq!(m.id, "cuda.no_kernel_image");
    assert_eq!(m.line, 2);
    assert_eq!(
        &text[m.span[0]..m.span[1]],
        "no kernel image is available for execution on the device"
    );
    assert_eq!(m.extracted.get("sm").map(String::as_str), Some("sm_120"));
    // the PyTorch warning is the more specific message
    assert_eq!(ex.primary, Some(1));
    let sum: f64 = m.causes.iter().map(|c| c.confidence).sum();
    assert!(sum <= 1.0001, "{sum}");
    let code = explain("cudaGetDeviceCount returned 803\n-> system has unsupported display driver / cuda driver combination");
    assert_eq!(
        code.matches[0]
            .extracted
            .get("cuda_error")
            .map(String::as_str),
        Some("803 (cudaErrorSystemDriverMismatch)")
    );
    let too_old = explain("The NVIDIA driver on your system is too old (found version 11040).");
    assert_eq!(
        too_old.matches[0]
            .extracted
            .get("driver_cuda")
            .map(String::as_str),
        Some("11.4")
    );
}

#[test]
fn repeated_lines_are_one_match_and_distinct_xids_are_separate() {
    let line = "NVRM: Xid (PCI:0000:3b:00): 13, Graphics Exception\n";
    let text = format!(
        "{}{}",
        line.repeat(50),
        "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
    );
    let ex = explain(&text);
    assert_eq!(ex.matches.len(), 2, "{:#?}", ex.matches);
    assert_eq!(ex.matches[0].occurrences, 50);
    assert_eq!(
        ex.matches[1].extracted.get("xid").map(String::as_str),
        Some("79")
    );
}

#[test]
fn facts_confirm_or_rule_out_machine_causes() {
    use crate::finding::{Finding, Severity};
    let text = "RuntimeError: CUDA error: no kernel image is available for execution on the device";
    let mut ex = explain(text);
    assert_eq!(
        top_cause(&ex).map(|c| c.id.as_str()),
        Some("torch.arch_unsupported")
    );
    let findings = vec![
        Finding::new(
            "torch.arch_unsupported",
            Severity::Pass,
            "PyTorch 2.7 has native kernels (sm_90) for GPU 0",
        ),
        Finding::new(
            "ext.arch_unsupported",
            Severity::Fail,
            "flash-attn has no kernels for GPU 0",
        )
        .fix("Rebuild flash-attn", &["pip install flash-attn"]),
    ];
    refine(&mut ex, &findings, "this machine");
    let top = top_cause(&ex).unwrap();
    assert_eq!(top.id, "ext.arch_unsupported");
    assert_eq!(top.commands, vec!["pip install flash-attn".to_string()]);
    assert!(top.evidence[0].contains("flash-attn has no kernels"));
    assert_eq!(ex.facts, "this machine");
}

#[test]
fn nothing_found_in_unrelated_text_and_garbage_never_panics() {
    assert!(explain("hello world, everything is fine")
        .matches
        .is_empty());
    assert!(explain("").matches.is_empty());
    let garbage: String = (0u32..20_000)
        .filter_map(|i| char::from_u32((i * 7919) % 0x2FFF))
        .collect();
    let _ = explain(&garbage);
    let huge = "CUDA out of memory. ".repeat(20_000);
    let ex = explain(&huge);
    assert_eq!(ex.matches.len(), 1);
    assert_eq!(ex.matches[0].occurrences, 20_000);
    // a match at the very end without newline, and multi-byte text around it
    let ex = explain("ünïcödé — CUBLAS_STATUS_EXECUTION_FAILED");
    assert_eq!(
        ex.matches[0].text,
        "ünïcödé — CUBLAS_STATUS_EXECUTION_FAILED"
    );
}

#[test]
fn text_and_json_render() {
    let ex = explain("RuntimeError: CUDA error: device-side assert triggered");
    let t = render::text(&ex, false);
    assert!(t.contains("workload.device_assert"), "{t}");
    assert!(t.contains("fix:"), "{t}");
    let v: serde_json::Value = serde_json::from_str(&render::json(&ex)).unwrap();
    let m = &v["matches"][0];
    assert_eq!(m["id"], "cuda.device_assert");
    assert!(m["span"].as_array().is_some_and(|s| s.len() == 2));
    assert_eq!(m["causes"][0]["id"], "workload.device_assert");
    assert!(m["causes"][0]["confidence"].as_f64().unwrap() > 0.5);
    assert!(m["causes"][0]["why"].as_str().is_some());
    assert!(m["causes"][0]["fix"].as_str().is_some());
    assert!(m["text"].as_str().unwrap().contains("device-side assert"));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        fn any_text_explains_without_panicking_and_spans_are_in_bounds(
            noise in ".{0,400}",
            pick in 0usize..6,
        ) {
            let messages = [
                "CUDA error: no kernel image is available for execution on the device",
                "NVRM: Xid (PCI:0000:01:00): 79, pid=1",
                "CUBLAS_STATUS_EXECUTION_FAILED",
                "Torch not compiled with CUDA enabled",
                "CUDA out of memory. Tried to allocate 1.00 GiB",
                "",
            ];
            let text = format!("{noise}\n{}\n{noise}", messages[pick]);
            let ex = explain(&text);
            for m in &ex.matches {
                prop_assert!(m.span[0] < m.span[1] && m.span[1] <= text.len());
                prop_assert!(text.is_char_boundary(m.span[0]) && text.is_char_boundary(m.span[1]));
                let sum: f64 = m.causes.iter().map(|c| c.confidence).sum();
                prop_assert!(sum <= 1.0001);
            }
            if pick < 5 {
                prop_assert!(ex.primary.is_some());
            }
            let _ = crate::diagnose::collect_env::parse(&text);
        }
    }
}

#[test]
fn the_matrix_names_the_build_for_an_sm_and_the_driver_for_a_cuda() {
    let m = crate::checks::testutil::matrix();
    let mut ex = explain("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.");
    enrich(&mut ex, m);
    let k = &ex.matches[0].causes[0];
    assert_eq!(k.id, "torch.arch_unsupported");
    assert!(k.commands[0].contains("pip install torch=="), "{k:?}");
    assert!(k.evidence[0].contains("sm_120"), "{k:?}");
    let mut ex = explain("torch==2.1.0+cu121\nUserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040).");
    enrich(&mut ex, m);
    let k = ex.matches[0]
        .causes
        .iter()
        .find(|k| k.id == "driver.too_old_for_torch")
        .unwrap();
    assert!(
        k.evidence
            .iter()
            .any(|e| e.contains("CUDA 12.1 build needs driver") && e.contains("CUDA 11.4")),
        "{k:?}"
    );
    assert_eq!(sm_to_cc("sm_90a"), Some((9, 0)));
    assert_eq!(sm_to_cc("sm_1"), None);
}

#[test]
fn known_ids_are_the_catalogue_and_the_explain_only_causes() {
    let ids = &*crate::explain::KNOWN_IDS;
    assert!(ids.contains(&"host.expected_gpus"));
    assert!(ids.contains(&"workload.out_of_memory"));
    assert!(ids.contains(&"none"));
    assert!(!ids.contains(&"area.snake_case"));
    for c in crate::checks::ALL {
        assert!(ids.contains(&c.id), "{}", c.id);
    }
    for id in crate::explain::EXPLAIN_ONLY_IDS {
        assert!(
            crate::checks::catalogue::by_id(id).is_none(),
            "{id} is a check: drop it from EXPLAIN_ONLY_IDS"
        );
    }
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
}

/// Non-ASCII text costs what ASCII text of the same size does (the rules scan an ASCII
/// shadow with the same byte offsets), and a match in it keeps its original line.
#[test]
fn non_ascii_text_costs_what_ascii_does() {
    let unit_cjk = "显存不足错误驱动程序版本 abc\n";
    let unit_ascii = "x".repeat(unit_cjk.len() - 1) + "\n";
    let n = 2 * 1024 * 1024 / unit_cjk.len();
    let cjk = format!(
        "{}RuntimeError: CUDA error: no kernel image is available for execution on the device ——显卡\n",
        unit_cjk.repeat(n)
    );
    let ascii = unit_ascii.repeat(n);
    let t = std::time::Instant::now();
    let _ = explain(&ascii);
    let t_ascii = t.elapsed();
    let t = std::time::Instant::now();
    let ex = explain(&cjk);
    let t_cjk = t.elapsed();
    assert!(
        t_cjk < t_ascii * 10 + std::time::Duration::from_millis(500),
        "ascii {t_ascii:?}, non-ascii {t_cjk:?}"
    );
    let m = &ex.matches[ex.primary.unwrap()];
    assert_eq!(m.id, "cuda.no_kernel_image");
    assert!(m.text.ends_with("——显卡"), "{}", m.text);
    assert!(cjk.get(m.span[0]..m.span[1]).is_some());
}

/// Typographic quotes and full-width colons read as their ASCII twins.
#[test]
fn typographic_punctuation_matches() {
    let ex = explain(
        "RuntimeError： CUDA error： no kernel image is available for execution on the device",
    );
    assert!(ex.matches.iter().any(|m| m.id == "cuda.no_kernel_image"));
}

/// No empty answer for a text that names a CUDA, driver or GPU-library error, whatever
/// its wording; the generic answer says so and is less confident than a rule.
#[test]
fn a_gpu_error_no_rule_knows_still_gets_ranked_causes() {
    for (text, first) in [
        // cudaErrorUnknown at initialisation: nvidia_uvm (finding-ids.md; ollama/ollama#2934).
        (
            "ggml_cuda_init: failed to initialize CUDA: unknown error",
            "driver.uvm_unavailable",
        ),
        (
            "Error: cudaMemcpyAsync returned 2 in my_kernel.cu",
            "workload.out_of_memory",
        ),
        (
            "ImportError: libcublasLt.so.12: version `libcublasLt.so.12' not found",
            "torch.wheel_deps_mismatch",
        ),
        (
            "nvcc error : 'cicc' died due to signal 9 (Kill signal)",
            "toolkit.torch_mismatch",
        ),
        (
            "[ollama] GPU kernel launch failed on device 0",
            "workload.library_bug",
        ),
    ] {
        // The generic answer itself, without the known cases' votes (tested on their own).
        let ex = explain_by_rules(text, "");
        let m = &ex.matches[ex.primary.unwrap_or_else(|| panic!("no answer for {text}"))];
        if m.id == GENERIC_MATCH {
            assert_eq!(m.causes[0].id, first, "{text}");
            assert!(
                m.causes.iter().all(|k| k.confidence <= GENERIC_CONFIDENCE),
                "{text}"
            );
        }
    }
    // prose and Python-only errors are not GPU errors
    assert!(explain("ModuleNotFoundError: No module named 'vllm.envs'")
        .matches
        .is_empty());
    assert!(explain("the weather is fine today").matches.is_empty());
}

/// Driver-state and framework families (wordings from public threads) name their cause.
#[test]
fn driver_states_and_framework_families() {
    for (text, want) in [
        ("modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", "driver.module_not_loaded"),
        ("Error! Bad return status for module build on kernel: 6.8.0-45-generic (x86_64)", "driver.module_not_loaded"),
        ("[  3.1] nvidia_uvm: probe of nvidia_uvm failed with error -1", "driver.uvm_unavailable"),
        ("Failed to get convolution algorithm. This is probably because cuDNN failed to initialize", "workload.out_of_memory"),
        ("The installed version of bitsandbytes was compiled without GPU support.", "ext.abi_mismatch"),
        ("nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/x/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file exists: unknown", "host.container_no_gpu"),
        ("NVRM: The NVIDIA GeForce GT 710 GPU installed in this system is\n NVRM:  supported through the NVIDIA 470.xx Legacy drivers.", "driver.gpu_unsupported"),
        ("Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error", "gpu.lost"),
        ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "ext.arch_unsupported"),
        ("$ docker run -it --rm ghcr.io/x/y:cuda\n/sd-cli: error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory", "host.container_no_gpu"),
    ] {
        let ex = explain(text);
        assert_eq!(top_cause(&ex).map(|k| k.id.as_str()), Some(want), "{text}");
    }
}

/// The generic answer reads a CUDA status by its runtime name, driver API name, printed text
/// or bare number, and lets the framework and circumstances move the ranking.
#[test]
fn the_generic_answer_reads_status_names_texts_and_numbers() {
    let generic_top = |text: &str| {
        let ex = explain(text);
        let m = &ex.matches[ex.primary.unwrap_or_else(|| panic!("no answer: {text}"))];
        assert_eq!(m.id, GENERIC_MATCH, "{text}: a rule matched ({})", m.id);
        assert!(
            m.causes.iter().all(|k| k.confidence <= GENERIC_CONFIDENCE),
            "{text}"
        );
        (m.causes[0].id.clone(), m.extracted.clone())
    };
    for (text, want, code) in [
        // by the CUresult name
        (
            "myapp: cuModuleLoadData failed: CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
            "driver.not_installed",
            "221",
        ),
        // by the runtime's name
        (
            "launcher: cudaModuleLoad -> cudaErrorInvalidPtx",
            "driver.too_old_for_toolkit",
            "218",
        ),
        // by the printed text
        (
            "ggml-cuda.cu:93: CUDA error: PTX JIT compiler library not found",
            "driver.not_installed",
            "221",
        ),
        // by the bare number (old numbering of cudaErrorUnknown included)
        (
            "THCudaCheck FAIL file=THCGeneral.c line=70 error=30 : unknown error",
            "driver.uvm_unavailable",
            "30",
        ),
        (
            "my_solver: CUDA call returned 35",
            "driver.too_old_for_toolkit",
            "35",
        ),
        (
            "torch: CUDA call returned 35",
            "driver.too_old_for_torch",
            "35",
        ),
    ] {
        let (top, extracted) = generic_top(text);
        assert_eq!(top, want, "{text}");
        assert!(
            extracted
                .get("cuda_error")
                .is_some_and(|c| c.starts_with(code)),
            "{text}: {extracted:?}"
        );
    }
    // circumstances: a suspend, a container, LD_LIBRARY_PATH
    let (top, _) =
        generic_top("my GPU app says: cuInit failed (the laptop had been in hibernation)");
    assert_eq!(top, "driver.uvm_unavailable");
    let (top, x) = generic_top("export LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64\nOSError: libcublasLt.so.12 failed to load: symbol lookup error");
    assert_eq!(top, "torch.libs_shadowed");
    assert_eq!(x.get("library").map(String::as_str), Some("libcublas"));
    let (_, x) = generic_top("jaxlib: GPU backend failed: something odd");
    assert_eq!(x.get("framework").map(String::as_str), Some("jax"));
    assert_eq!(cuda_error_name(222), Some("cudaErrorUnsupportedPtxVersion"));
    assert_eq!(cuda_error_name(5), None);
}

/// Rules written for the issue's families from researched wordings (tests/corpus/errors/
/// research-2026-11b.toml): each a pattern over the message's structure, checked here on
/// wordings that are not the corpus's.
#[test]
fn family_rules_from_the_research() {
    for (text, want) in [
        ("stderr: nvidia-container-cli: ldcache error: process /usr/sbin/ldconfig failed with error code: 1: unknown", "host.container_no_gpu"),
        ("I1210 main.go:40] Failed to initialize NVML: could not load NVML library.\nIf this is a GPU node, did you set the docker default runtime to `nvidia`?", "host.container_no_gpu"),
        ("$ sudo nvidia-smi\nFailed to initialize NVML: NVML version mismatch", "driver.library_mismatch"),
        ("Ollama stopped using the GPU after resume from hibernate", "driver.uvm_unavailable"),
        ("nvidia-smi stopped working since the kernel update last night", "driver.module_not_loaded"),
        ("Does PyTorch 2.0 no longer support Tesla K80?", "torch.arch_unsupported"),
        ("My GTX 760 has compute capability 3.0 which is not supported by this build", "torch.arch_unsupported"),
        ("W external/xla/xla/service/gpu/gpu_compiler.cc] Unable to load cuDNN. Falling back to CPU", "torch.wheel_deps_mismatch"),
        ("E0101 jax: The cuBLAS library was not found.\n search path=/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/math_libs/lib64 (LD_LIBRARY_PATH)", "torch.libs_shadowed"),
        ("W tensorflow/tsl/platform/default/dso_loader.cc:66] Could not load dynamic library 'cublas64_12.dll'; dlerror: cublas64_12.dll not found", "torch.wheel_deps_mismatch"),
        ("CUDA backend failed to initialize: Found cuBLAS version 120103, but JAX was built against version 120205, which is newer.", "torch.wheel_deps_mismatch"),
        ("CUDA SETUP: Required library version not found: libbitsandbytes_cuda122.so. Maybe you need to compile it from source?", "ext.abi_mismatch"),
        ("ImportError: /opt/app/ops/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: cublasLtMatmulAlgoGetHeuristic", "torch.libs_shadowed"),
        ("Error: the provided PTX was compiled with an unsupported toolchain. (tritonserver model load)", "driver.too_old_for_toolkit"),
        ("NVIDIA-SMI has failed because it couldn’t communicate with the NVIDIA driver.", "driver.module_not_loaded"),
    ] {
        let ex = explain(text);
        assert_eq!(top_cause(&ex).map(|k| k.id.as_str()), Some(want), "{text}");
    }
}

/// Xid causes come from the catalogue the `gpu.xid` check judges with: its meaning is the
/// why, its todo the fix, its fault decides whether the application is blamed first.
#[test]
fn xid_causes_are_read_from_the_catalogue() {
    let m = crate::checks::testutil::matrix();
    for e in &m.xid.xid {
        let causes = rules::xid_causes(e.code);
        let first = &causes[0];
        assert!(known_id(first.id), "xid {}: {}", e.code, first.id);
        if e.fault == "application" {
            assert_eq!(first.id, "workload.illegal_address", "xid {}", e.code);
        } else {
            assert!(first.id.starts_with("gpu."), "xid {}: {}", e.code, first.id);
            assert_eq!(first.why, e.meaning, "xid {}", e.code);
            assert_eq!(first.fix, e.todo, "xid {}", e.code);
        }
    }
    // A code the catalogue lacks is still an Xid.
    assert!(m.xid.xid.iter().all(|e| e.code != 7));
    assert_eq!(rules::xid_causes(7)[0].id, "gpu.xid");
    let ex = explain(
        "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.",
    );
    let k = top_cause(&ex).unwrap();
    assert_eq!(k.id, "gpu.lost");
    let entry = m.xid.xid.iter().find(|e| e.code == 79).unwrap();
    assert_eq!(k.why, entry.meaning);
}

/// `--deep`'s captured torch error goes through the same decoder as a pasted one.
#[test]
fn decode_error_appends_the_decoders_cause() {
    let raw = "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 36: API call is not supported in the installed CUDA driver";
    let d = decode_error(raw);
    assert!(d.starts_with(raw), "{d}");
    assert!(d.contains("[gpu-doctor: driver.too_old_for_torch:"), "{d}");
    // one no rule knows: the generic answer decodes the number
    let raw = "torch._C._cuda_init() failed: CUDA call returned 804";
    let d = decode_error(raw);
    assert!(
        d.contains("[gpu-doctor: driver.forward_compat_unsupported:"),
        "{d}"
    );
    // nothing GPU-related: unchanged
    assert_eq!(decode_error("KeyError: 'x'"), "KeyError: 'x'");
}

/// Texts from a machine that works (collect_env lines, nvidia-smi tables, training logs that
/// say "no errors") get no answer: the generic answer never blames a fine machine.
#[test]
fn healthy_texts_get_no_answer() {
    for text in [
        "Is CUDA available: True\nIs debug build: False\nGPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090",
        "torch.cuda.is_available() -> True; no errors",
        "Epoch 3: loss 0.231, GPU memory 10.2 GiB, no error",
        "Using GPU: NVIDIA A100-SXM4-80GB, driver 550.54.15, CUDA 12.4",
        "ggml_cuda_init: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes",
        "| NVIDIA-SMI 535.183.01   Driver Version: 535.183.01   CUDA Version: 12.2 |\n|   0  NVIDIA A10G   On  | 00000000:00:1E.0 Off |   0 |",
        // A CPU run the user asked for is no failure.
        "falling back to CPU because no GPU was requested",
        "time=2025-01-01T00:00:00Z level=INFO source=server.go:1 msg=\"falling back to CPU because no GPU was requested\"",
        "No GPU requested: running the model on the CPU as requested",
    ] {
        let ex = explain(text);
        assert!(ex.matches.is_empty(), "{text}: {:?}", ex.matches.first().map(|m| &m.id));
    }
    // ...while the same words saying it failed do.
    assert!(explain("Is CUDA available: False").primary.is_some());
    assert!(
        explain("falling back to CPU: no compatible GPUs were discovered")
            .primary
            .is_some()
    );
}

/// The generic answer's phases and circumstances on wordings no rule knows.
#[test]
fn the_generic_answer_knows_install_memory_nvml_and_noise() {
    let top = |t: &str| top_cause(&explain_by_rules(t, "")).map(|k| k.id.clone());
    assert_eq!(
        top("llama_model_load: error loading model: unable to allocate CUDA0 buffer").as_deref(),
        Some("workload.out_of_memory")
    );
    assert_eq!(
        top("bash: nvidia-smi: command not found").as_deref(),
        Some("driver.not_installed")
    );
    assert_eq!(top("ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.").as_deref(), Some("driver.module_not_loaded"));
    assert_eq!(
        top("UserWarning: Can't initialize NVML").as_deref(),
        Some("driver.nvml_failed")
    );
    assert!(top("msg=\"no compatible GPUs were discovered\"").is_some());
    // TensorFlow's start-up registration warnings break nothing.
    assert_eq!(top("E0000 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered"), None);
}

/// Issue #14 round 2: general wordings learned from fresh field texts (research-2026-11c).
#[test]
fn jax_without_a_cuda_platform_its_version_checks_and_a_script_set_visible_devices() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    // XLA has no CUDA platform registered: a CPU build, even when the line is wrapped.
    assert_eq!(
        top("RuntimeError: Backend 'gpu' failed to initialize: NOT_FOUND: Could not find \nregistered platform with name: \"cuda\". Available platform names are: \nHost Interpreter").as_deref(),
        Some("torch.cpu_only")
    );
    // A failure inside jaxlib's CUDA version checks: the jax CUDA packages, not the driver.
    assert_eq!(
        top("CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation gpuDeviceGetAttribute( &major, GPU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) failed: CUDA_ERROR_NOT_INITIALIZED").as_deref(),
        Some("torch.wheel_deps_mismatch")
    );
    // "No CUDA GPUs are available" with nothing else: a visible-devices list naming a missing GPU
    // first; an explicit empty value still says empty.
    assert_eq!(
        top("    torch._C._cuda_init()\nRuntimeError: No CUDA GPUs are available").as_deref(),
        Some("env.visible_devices_invalid")
    );
    assert_eq!(
        top("CUDA_VISIBLE_DEVICES=\nRuntimeError: No CUDA GPUs are available").as_deref(),
        Some("env.visible_devices_empty")
    );
}

/// Issue #14 round 2, batch 2: the driver's "operation not supported" (status 801) and
/// Kubernetes' "Insufficient nvidia.com/gpu" are explained, not left to the generic answer.
#[test]
fn operation_not_supported_and_insufficient_nvidia_gpu() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    let ex = explain("RuntimeError: CUDA driver error: operation not supported");
    assert_eq!(
        ex.primary.map(|i| ex.matches[i].id.as_str()),
        Some("cuda.not_supported")
    );
    assert_eq!(
        top("RuntimeError: CUDA driver error: operation not supported").as_deref(),
        Some("env.alloc_conf_invalid")
    );
    assert_eq!(
        top("cudaIpcGetMemHandle failed: CUDA error: operation not supported").as_deref(),
        Some("workload.library_bug")
    );
    assert_eq!(
        top("Warning  FailedScheduling  0/1 nodes are available: 1 Insufficient nvidia.com/gpu")
            .as_deref(),
        Some("host.container_no_gpu")
    );
}

/// Issue #14 round 2, batch 3: ONNX Runtime's provider messages, and an undefined symbol whose
/// line was wrapped by the paste.
#[test]
fn onnxruntime_providers_and_a_wrapped_undefined_symbol() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    assert_eq!(
        top("[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime.").as_deref(),
        Some("torch.wheel_deps_mismatch")
    );
    assert_eq!(
        top("UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'CPUExecutionProvider'").as_deref(),
        Some("torch.cpu_only")
    );
    assert_eq!(
        top("flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined\n symbol: _ZN3c104impl3cow11cow_deleterEPv").as_deref(),
        Some("ext.abi_mismatch")
    );
}

/// Issue #14 round 2, batch 4: an error quoted in an issue ("> " before each line) reads as the
/// bare error; a Python prompt is no quote.
#[test]
fn a_quoted_error_reads_as_the_bare_one() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    let bare = "`fa3F@2.8.0` is not supported because:\nrequires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)";
    let quoted = "> `fa3F@2.8.0` is not supported because:\n> requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)";
    assert_eq!(top(bare).as_deref(), Some("ext.arch_unsupported"));
    assert_eq!(top(quoted), top(bare));
    assert_eq!(
        top(&format!("> {}", quoted.replace('\n', "\n> "))),
        top(bare)
    );
    assert_eq!(
        top(">>> torch.cuda.is_available()\nFalse").as_deref(),
        top("torch.cuda.is_available()\nFalse").as_deref()
    );
}

/// Issue #14 round 3 (research-2026-11d), containers: the toolkit's errors on a machine the paste
/// says has no NVIDIA GPU, GPU checks inside `docker build`, CDI that cannot resolve, and
/// nvidia-smi missing inside a pod.
#[test]
fn containers_without_a_gpu_a_build_step_cdi_and_a_pod_without_the_runtime() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    let toolkit = "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].";
    assert_eq!(top(toolkit).as_deref(), Some("host.container_no_gpu"));
    assert_eq!(
        top(&format!(
            "{toolkit}\nGraphics Mesa Intel® Xe Graphics (TGL GT2)"
        ))
        .as_deref(),
        Some("host.no_nvidia_gpu")
    );
    assert_eq!(
        top("nividia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown\nmy laptop doesn't have an NVIDIA graphics card").as_deref(),
        Some("host.no_nvidia_gpu")
    );
    assert_eq!(
        top("RUN python3 -c \"import torch; print(torch.cuda.is_available())\"\nFalse").as_deref(),
        Some("host.container_no_gpu")
    );
    // `docker run` is no build step.
    let ex = explain("docker run --gpus all ubuntu nvidia-smi");
    assert!(ex
        .matches
        .iter()
        .all(|m| m.id != "container.build_step_gpu"));
    assert_eq!(
        top("Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all")
            .as_deref(),
        Some("host.container_no_gpu")
    );
    assert_eq!(
        top("/aio/entrypoint.sh: line 52: nvidia-smi: command not found").as_deref(),
        Some("host.container_no_gpu")
    );
    // On a bare host the command is missing because the driver's utilities are.
    assert_eq!(
        top("bash: nvidia-smi: command not found").as_deref(),
        Some("driver.not_installed")
    );
}

/// Issue #14 round 3, driver states, devices and the kernel log.
#[test]
fn open_module_flavour_root_only_gpus_mig_counts_and_one_programs_xids() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    assert_eq!(
        top("NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.\nNVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)").as_deref(),
        Some("driver.gpu_unsupported")
    );
    assert_eq!(
        top("Torch is not able to use GPU unless superuser").as_deref(),
        Some("driver.device_nodes")
    );
    assert_eq!(
        top("I have an a100 machine with MIG enabled and torch.cuda.device_count() shows only one gpu").as_deref(),
        Some("gpu.mig_enabled")
    );
    assert_eq!(
        top("CUDA_VISIBLE_DEVICES=MIG-feee0c61 ipython\ntorch.cuda.device_count() returns 0 in MIG mode, but tensor(...) on cuda still works").as_deref(),
        Some("workload.library_bug")
    );
    // An MMU fault (Xid 31) from two pids of one program is that program's; from two programs
    // it points at the GPU.
    let one = "NVRM: Xid (PCI:0000:08:00): 31, pid=169800, name=chrome, Ch 00000023, MMU Fault\nNVRM: Xid (PCI:0000:08:00): 31, pid=174421, name=chrome, Ch 00000023, MMU Fault";
    assert_eq!(top(one).as_deref(), Some("workload.illegal_address"));
    let two = one.replace("pid=174421, name=chrome", "pid=174421, name=python3");
    assert_eq!(top(&two).as_deref(), Some("gpu.xid"));
}

/// Issue #14 round 3, memory: a paste that says other processes hold the memory makes any
/// memory failure gpu.busy (added where the rule did not list it); a library's "initialization
/// failed" is memory first.
#[test]
fn other_processes_holding_memory_and_library_init_failures() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    assert_eq!(
        top("CUBLAS initialization failed in example 24").as_deref(),
        Some("workload.out_of_memory")
    );
    assert_eq!(
        top("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\nwhen I clear the gpu of other processes it works").as_deref(),
        Some("gpu.busy")
    );
    assert_eq!(
        top("I keep getting OOM errors; the GPU has 13GB allocated by someone").as_deref(),
        Some("gpu.busy")
    );
    // Without such words the job's own memory stays first.
    assert_eq!(
        top("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB").as_deref(),
        Some("workload.out_of_memory")
    );
}

/// Issue #14 round 3, batch 6: the toolkit failing to load the host's libcuda is the host's
/// driver; a version mismatch between the driver's own kernel modules; CUDA_VISIBLE_DEVICES set
/// from inside the program.
#[test]
fn host_libcuda_missing_module_version_mismatch_and_visible_devices_set_in_code() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    assert_eq!(
        top("nvidia-container-cli: initialization error: load library failed: libcuda.so.1")
            .as_deref(),
        Some("driver.not_installed")
    );
    assert_eq!(
        top("nvidia-modeset: Version mismatch: nvidia.ko(378.13) nvidia-modeset(375.26)")
            .as_deref(),
        Some("driver.library_mismatch")
    );
    assert_eq!(
        top("os.environ['CUDA_VISIBLE_DEVICES']='1'\nthe code will always use cuda:0").as_deref(),
        Some("env.visible_devices_invalid")
    );
    // A real error in the same paste explains more than where the variable was set.
    let ex = explain("os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"0\"\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
    assert_eq!(
        ex.primary.map(|i| ex.matches[i].id.as_str()),
        Some("cuda.out_of_memory")
    );
}

/// Issue #14 round 3, batch 7: the GPU's own warp/lane exception report is the program's
/// fault; memory left in use after a job is processes still holding it; the generic answer reads
/// "other processes hold the memory" too.
#[test]
fn warp_exceptions_memory_not_released_and_generic_memory_words() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    assert_eq!(
        top("CUDA Exception: Warp Out-of-range Address\nProgram received signal CUDA_EXCEPTION_5, Warp Out-of-range Address.").as_deref(),
        Some("workload.illegal_address")
    );
    assert_eq!(
        top("when the program ends, the memory of the GPU0 is released, but the other GPUs are not released").as_deref(),
        Some("gpu.busy")
    );
    assert_eq!(
        top("fuser -v /dev/nvidia* shows the worker processes").as_deref(),
        Some("gpu.busy")
    );
    // Inside one process the caching allocator keeps memory reserved: the job's own memory.
    assert_eq!(
        top("GPU memory is not released after del x and torch.cuda.empty_cache() in the same process").as_deref(),
        Some("workload.out_of_memory")
    );
}

/// Issue #14 round 3, batch 8: CUDA_VISIBLE_DEVICES hiding every GPU from inside the program, and
/// a setting changed on an active context.
#[test]
fn visible_devices_hidden_from_code_and_set_on_active_process() {
    let top = |t: &str| top_cause(&explain(t)).map(|k| k.id.clone());
    assert_eq!(
        top("Call to cuInit results in CUDA_ERROR_NO_DEVICE:\nos.environ[\"CUDA_VISIBLE_DEVICES\"]=\"-1\"").as_deref(),
        Some("env.visible_devices_empty")
    );
    assert_eq!(
        top("CUDA_VISIBLE_DEVICES=-1 python x.py\ncudaErrorNoDevice").as_deref(),
        Some("env.visible_devices_empty")
    );
    assert_eq!(
        top("error: \"cannot set while device is active in this process\"").as_deref(),
        Some("workload.library_bug")
    );
}

/// Issue #14 round 3: nvcc refusing the host compiler is its own cause, in GCC's and MSVC's
/// words, and the generic answer knows it too when the wording is cut.
#[test]
fn an_unsupported_host_compiler_is_toolkit_host_compiler_unsupported() {
    for text in [
        "/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check",
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.3\\include\\crt/host_config.h(160): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2019 (inclusive) are supported!",
        "error: #error -- unsupported clang version! clang version must be less than 16 and greater than 3.2",
    ] {
        assert_eq!(top(text), "toolkit.host_compiler_unsupported", "{text}");
    }
    assert!(KNOWN_IDS.contains(&"toolkit.host_compiler_unsupported"));
    // Without a host-compiler word it stays a build failure of another kind.
    assert_ne!(
        top("nvcc fatal   : Unsupported gpu architecture 'compute_89'"),
        "toolkit.host_compiler_unsupported"
    );
}

/// A library's own minimum compute capability, in its words, is the extension's arch floor; the
/// same words in a list of alternatives (xformers' operators) do not blame the GPU.
#[test]
fn library_arch_floors_name_the_extension() {
    for text in [
        "ERROR: Your GPU does not support Int8 Matmul!",
        "UserWarning: WARNING: Compute capability < 7.5 detected! Only slow 8-bit matmul is supported for your GPU!",
        "time=2024-05-01 level=INFO source=gpu.go:138 msg=\"CUDA GPU is too old. Falling back to CPU mode. Compute Capability detected: 3.7\"",
        "INFO 03-19 11:53:56 [cuda.py:234] Cannot use FlashAttention-2 backend for Volta and Turing GPUs.",
        "cuBLAS error 15 at ggml-cuda.cu:7956: the requested functionality is not supported",
    ] {
        assert_eq!(top(text), "ext.arch_unsupported", "{text}");
    }
}

/// cuBLAS statuses by number and by cublasGetStatusString's text reach the same rules as the
/// CUBLAS_STATUS_* names.
#[test]
fn cublas_statuses_by_number_and_phrase() {
    let id = |t: &str| {
        let ex = explain(t);
        ex.primary
            .and_then(|i| ex.matches.get(i))
            .map(|m| m.id.clone())
    };
    assert_eq!(
        id("cuBLAS error 13 at foo.cu:12").as_deref(),
        Some("cublas.execution_failed")
    );
    assert_eq!(
        id("cublas status: the GPU program failed to execute").as_deref(),
        Some("cublas.execution_failed")
    );
    assert_eq!(
        id("cuBLAS error 7 at bar.cu:3").as_deref(),
        Some("cublas.invalid_value")
    );
    assert_eq!(
        id("cuBLAS error 15 at baz.cu:9").as_deref(),
        Some("cublas.not_supported")
    );
    assert_eq!(
        top("cuBLAS error 8: an absent device architectural feature is required"),
        "torch.arch_unsupported"
    );
    // "cuBLAS error 1" is NOT_INITIALIZED, "cuBLAS error 13" is not.
    assert_ne!(
        id("cuBLAS error 13 at x.cu:1").as_deref(),
        Some("cublas.not_initialized")
    );
}

/// A kernel failure that comes and goes with a library's version, or that faults inside an
/// installed third-party package, is that library's bug; a bare illegal access stays the
/// program's.
#[test]
fn version_contrast_and_library_frames_tell_library_bugs_from_illegal_accesses() {
    let bare = "RuntimeError: CUDA error: an illegal memory access was encountered";
    assert_eq!(top(bare), "workload.illegal_address");
    for extra in [
        "It works with vllm 0.4.2 and fails with 0.4.3.",
        "This does not happen with torch 2.1.2.",
        "A regression since the last release.",
        "Looks like a known bug in version 0.6.3 of vllm.",
        "  File \"/opt/venv/lib/python3.11/site-packages/somekernels/ops/attn.py\", line 41, in forward",
    ] {
        assert_eq!(top(&format!("{bare}\n{extra}")), "workload.library_bug", "{extra}");
    }
    assert_eq!(
        top("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`\nIt did not fail with torch 1.7.1 on the same machine."),
        "workload.library_bug"
    );
    // The program's own file and an unversioned "works on CPU" are no library evidence.
    assert_eq!(
        top(&format!(
            "  File \"/home/me/train.py\", line 3, in <module>\n{bare}\nIt works fine on CPU."
        )),
        "workload.illegal_address"
    );
}

/// A version check that refuses a version above its own minimum is the library's bug; one that
/// refuses a version below it is not.
#[test]
fn a_version_check_refusing_a_newer_version_is_a_library_bug() {
    assert_eq!(
        top("RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: 12.8"),
        "workload.library_bug"
    );
    // Below the minimum: the CUDA found is too old (with or without the known cases).
    let below = "RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: 9.2";
    assert_eq!(top(below), "toolkit.not_found");
    assert_eq!(
        top_cause(&explain_by_rules(below, "")).map(|k| k.id.as_str()),
        Some("toolkit.not_found")
    );
}

/// Library conflicts: torch's own symbol missing from torch's library is two torch installs;
/// another CUDA framework imported first shadows torch's libraries; mismatched framework
/// packages are the environment's pins; a cuDNN message cut at a fixed width still matches.
#[test]
fn library_conflicts_in_their_own_shapes() {
    assert_eq!(
        top("ImportError: /env/lib/python3.8/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: _ZN3c1010TensorImpl7releaseEv"),
        "torch.multiple_installs"
    );
    assert_eq!(
        top("import tensorflow as tf\nimport torch\nImportError: /env/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: cudaGraphInstantiateWithFlags, version libcudart.so.11.0"),
        "torch.libs_shadowed"
    );
    assert_eq!(
        top("RuntimeError: jaxlib is version 0.4.1, but this version of jax requires version >= 0.4.7."),
        "torch.wheel_deps_mismatch"
    );
    let cut = "E cuda_dnn.cc:319] Loaded runtime CuDNN l\nibrary: 8.1.0 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major version";
    let ex = explain(cut);
    assert_eq!(
        ex.primary
            .and_then(|i| ex.matches.get(i))
            .map(|m| m.id.as_str()),
        Some("cudnn.loaded_runtime_mismatch")
    );
    // The same message from a conda environment points at its packages.
    assert_eq!(
        top("(myenv) $ conda list cudnn\nLoaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have matching major version"),
        "torch.wheel_deps_mismatch"
    );
}

/// A self-built binary without this GPU's kernels is the extension's; one that fails on one GPU
/// model and not another carries code compiled for the other.
#[test]
fn builds_and_gpu_contrasts_point_at_the_compiled_artifact() {
    assert_eq!(
        top("RuntimeError: CUDA error: no kernel image is available for execution on the device\nI compiled it from source with cuda 11.3 on a GTX 970."),
        "ext.arch_unsupported"
    );
    // torch's own "Compile with `TORCH_USE_CUDA_DSA`" is no local build.
    assert_eq!(
        top("RuntimeError: CUDA error: no kernel image is available for execution on the device\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation."),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("RuntimeError: Triton Error [CUDA]: device kernel image is invalid\nIt happens on an H100 but not on an A100 with the same environment."),
        "ext.arch_unsupported"
    );
}

/// Toolchains: XLA's "ptxas too old" wordings, apex's toolkit check, and a library a loader
/// "cannot open" is missing rather than shadowed.
#[test]
fn xla_ptxas_apex_toolkit_and_unopenable_libraries() {
    assert_eq!(
        top("W external/xla/xla/stream_executor/gpu/asm_compiler.cc:231] Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 9.0"),
        "toolkit.arch_unsupported"
    );
    assert_eq!(
        top("*** WARNING *** You are using ptxas 10.1.243, which is older than 11.1. ptxas before 11.1 is known to miscompile XLA code\n$ which -a ptxas\n/usr/local/cuda-10.1/bin/ptxas"),
        "toolkit.multiple"
    );
    assert_eq!(
        top("RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.8."),
        "toolkit.torch_mismatch"
    );
    assert_eq!(
        top("[TRT] Unable to open library: libnvinfer_plugin.so.10 due to libcudnn.so.9"),
        "torch.wheel_deps_mismatch"
    );
}

/// NVRTC and ptxas refusing the GPU's architecture, and a fault reported from a library's kernel
/// header.
#[test]
fn nvrtc_and_ptx_targets_and_library_kernel_headers() {
    assert_eq!(
        top("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\nnvrtc compilation failed:"),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("import cupy\nnvrtc: error: invalid value for --gpu-architecture (-arch)"),
        "toolkit.arch_unsupported"
    );
    assert_eq!(
        top("ptxas /tmp/x.ptx, line 6; error   : PTX .version 7.4 does not support .target sm_90\nptxas fatal   : Ptx assembly aborted due to errors"),
        "toolkit.arch_unsupported"
    );
    assert_eq!(
        top("CUDA Error: CUDA_ERROR_ILLEGAL_ADDRESS /workspace/include/somelib/attention/decode.cuh 120\nRuntimeError: CUDA error: an illegal memory access was encountered"),
        "workload.library_bug"
    );
}

/// More shapes of library-bug evidence (a change it worked before, a component whose switch-off
/// makes it work) and the short "no kernel image available for sm_NNN".
#[test]
fn before_after_and_switch_off_evidence_and_short_kernel_image_wording() {
    assert_eq!(
        top("The model worked before commit abc123, but failed after with RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling cublasLtMatmul"),
        "workload.library_bug"
    );
    assert_eq!(
        top("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling cublasLtMatmul\ndisabling cublasLt, the same matmul works."),
        "workload.library_bug"
    );
    assert_eq!(
        top("CUDA error: no kernel image available for sm_120\nNVIDIA GeForce RTX 5090 with CUDA sm_120 not compatible"),
        "torch.arch_unsupported"
    );
}

/// torch 2.7+'s start-up warning for a GPU outside the build's range ("Minimum and Maximum
/// cuda capability supported by this version of PyTorch is (7.5) - (12.0)", Forge Neo on a
/// GTX 1080) and cpp_extension's "Unknown CUDA arch (8.6) or GPU not supported" (a CUDA
/// 10.2 torch building for an RTX 3090) are the torch build's architecture.
#[test]
fn torch_capability_range_warning_and_cpp_extension_unknown_arch() {
    let warning = "UserWarning:\n    Found GPU0 NVIDIA GeForce GTX 1080 with Max-Q Design which is of cuda capability 6.1.\n    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (7.5) - (12.0)\n";
    assert_eq!(top(warning), "torch.arch_unsupported");
    let build = "  File \"torch/utils/cpp_extension.py\", line 1508, in _get_cuda_arch_flags\n    raise ValueError(\"Unknown CUDA arch ({}) or GPU not supported\".format(arch))\nValueError: Unknown CUDA arch (8.6) or GPU not supported";
    assert_eq!(top(build), "torch.arch_unsupported");
    let setting = "export TORCH_CUDA_ARCH_LIST=\"8.9\"\nValueError: Unknown CUDA arch (8.9) or GPU not supported";
    assert_eq!(top(setting), "ext.arch_unsupported");
}

/// Issue #14 round 4 (ranking): a torch version string naming the CPU build decides between an
/// extension built for another torch and a CPU-only torch, and is read by the generic answer too;
/// torchvision's own `+cpu` does not count.
#[test]
fn a_cpu_torch_build_in_the_text_outranks_the_extension_mismatch() {
    let xformers = "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)";
    let ex = explain(xformers);
    let k = top_cause(&ex).expect("a cause");
    assert_eq!(k.id, "torch.cpu_only");
    assert!(k.observed);
    // The same message naming a CUDA torch stays the extension's mismatch.
    assert_eq!(
        top("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.2.2+cu121)"),
        "ext.abi_mismatch"
    );
    // The generic answer (no rule knows the text) reads it as well.
    assert_eq!(
        top("device=0 is not working to train on GPU\nit is returning False\npytorch 1.13.1+cpu"),
        "torch.cpu_only"
    );
    assert!(small(TORCH_CPU_BUILD)
        .is_some_and(|re| re.is_match("Ultralytics YOLOv8.1.3 Python-3.10.11 torch-2.1.0+cpu")));
    assert!(!small(TORCH_CPU_BUILD)
        .is_some_and(|re| re.is_match("torchvision==0.15.1+cpu torch==2.0.0+cu118")));
}

/// Issue #14 round 4 (ranking): torch finding no GPU with a paste that says the driver is too
/// old, or names a driver branch older than any CUDA build of torch needs.
#[test]
fn an_old_driver_named_in_the_text_outranks_the_cpu_build() {
    assert_eq!(
        top(">>> torch.cuda.is_available()\nFalse\n410.48,,\nneed higher ??"),
        "driver.too_old_for_torch"
    );
    assert_eq!(
        top(">>> torch.cuda.is_available()\nFalse\nwhen i run my program, the msg is that my Nvidia version is too old."),
        "driver.too_old_for_torch"
    );
    // A cu12 build needs the 525 branch: driver 470 is too old for it, 535 is not.
    assert_eq!(
        top("torch 2.3.0+cu121\ntorch.cuda.is_available() False\nDriver Version: 470.82.01"),
        "driver.too_old_for_torch"
    );
    assert_ne!(
        top("torch 2.3.0+cu121\ntorch.cuda.is_available() False\nDriver Version: 535.104.05"),
        "driver.too_old_for_torch"
    );
}

/// Issue #14 round 4 (ranking): "no kernel image" from code the author built names the build's
/// architecture list; PyTorch's own "Compile with TORCH_USE_CUDA_DSA" and "PyTorch built with"
/// do not count.
#[test]
fn a_local_build_makes_a_missing_kernel_image_the_extensions() {
    assert_eq!(
        top("RuntimeError: CUDA error: no kernel image is available for execution on the device\nBuilt with pytorch 1.7, cuda 10.2, TITAN X, got this error."),
        "ext.arch_unsupported"
    );
    assert!(!built_locally("For debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."));
    assert!(!built_locally(
        "PyTorch compiling details: PyTorch built with:\n  - GCC 7.3"
    ));
    assert!(built_locally(
        "I compiled it from source with MMCV_WITH_OPS=1"
    ));
}

/// Issue #14 round 4: "operation not supported" from a program that chose cudaMallocAsync is the
/// program's choice; with expandable segments named it stays the allocator setting. A bare
/// "Could not find TensorRT" is TensorFlow's start-up warning, not a failure.
#[test]
fn cuda_malloc_async_and_the_tensorrt_warning() {
    assert_eq!(
        top("  File \"C:\\ComfyUI\\comfy\\model_management.py\", line 105, in get_total_memory\n    _, mem_total_cuda = torch.cuda.mem_get_info(dev)\nRuntimeError: CUDA error: operation not supported"),
        "workload.library_bug"
    );
    assert_eq!(
        top("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\nRuntimeError: CUDA driver error: operation not supported"),
        "env.alloc_conf_invalid"
    );
    assert!(top_cause(&explain("I don't have any Nvidia hardware.  How to resolve the warning:\n\n`Could not find TensorRT`")).is_none());
}

/// Issue #14 round 4: Ollama's "you may not have enough available memory to run this model" is
/// the model not fitting; other processes named in the paste raise `gpu.busy`.
#[test]
fn an_llm_runner_out_of_memory() {
    assert_eq!(
        top("Error: llama runner exited, you may not have enough available memory to run this model"),
        "workload.out_of_memory"
    );
    assert_eq!(
        top("Error: llama runner process has terminated: not enough available memory\nanother process is using most of the VRAM"),
        "gpu.busy"
    );
}

/// Issue #14 round 4: NVRTC refusing the GPU's -arch is a torch whose CUDA predates the GPU; a
/// nightly is PyTorch's own bug.
#[test]
fn nvrtc_refusing_the_architecture() {
    assert_eq!(
        top("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\nI am using RTX 4090\ntorch==1.10.0+cu113"),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("nvrtc: error: invalid value for --gpu-architecture (-arch)\nRTX 4090\npytorch 1.14+cu117  nightly"),
        "workload.library_bug"
    );
}

/// Issue #14 round 4: the cudaMallocAsync out-of-memory message whose own figures show memory held
/// outside the process; without such a gap it stays the job's own out of memory.
#[test]
fn async_allocator_oom_figures_show_other_programs() {
    let msg = |allocated: &str| {
        format!("torch.cuda.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated     : {allocated}\nRequested               : 952.00 MiB\nDevice limit            : 24.00 GiB\nFree (according to CUDA): 0 bytes")
    };
    assert_eq!(top(&msg("21.55 GiB")), "gpu.busy");
    assert_eq!(top(&msg("23.50 GiB")), "workload.out_of_memory");
    let f = async_oom_figures(&msg("21.55 GiB")).expect("figures");
    assert!((f.requested - 952.0 / 1024.0).abs() < 1e-9);
    assert!(f.free.abs() < 1e-12);
}

/// Issue #14 round 4: a paste saying PyTorch itself lacks the GPU's architecture decides "no
/// kernel image" for the torch build even where an extension is named.
#[test]
fn a_paste_saying_pytorch_lacks_the_architecture() {
    assert_eq!(
        top("When running vLLM with a NVIDIA RTX 5090 GPU:\nRuntimeError: CUDA error: no kernel image is available for execution on the device\nFrom the logs, it seems that PyTorch does not support the compute capability of the RTX 5090 (sm_120)"),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("When running vLLM with a NVIDIA RTX 5090 GPU:\nRuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "ext.arch_unsupported"
    );
}

/// Issue #14 round 5: a collective that hangs until NCCL's P2P transport is turned off is peer
/// copies stalled by the IOMMU/ACS; the same hang with nothing about P2P stays the job's.
#[test]
fn a_hang_that_nccl_p2p_disable_cures_is_acs_or_the_iommu() {
    assert_eq!(
        top("the model \"freeze\"(stuck) when using 4 or more GPUs. I confirmed that the model works by setting the variable NCCL_P2P_DISABLE =1 ."),
        "probe.p2p"
    );
    assert_eq!(
        top("all_reduce_perf hangs between GPU0 and GPU1 (PXB).\nSetting NCCL_P2P_DISABLE=1 did workaround but got really low speed."),
        "probe.p2p"
    );
    assert_eq!(
        top("[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out."),
        "workload.nccl"
    );
}

/// Issue #14 round 5: "peer access is not supported" on GeForce cards is the program requiring
/// P2P the GPUs do not offer; in a VM, the passthrough/IOMMU hiding it.
#[test]
fn peer_access_unsupported_is_the_program_on_geforce_and_the_iommu_in_a_vm() {
    assert_eq!(
        top("raise the error `peer access is not supported between these two device`\nwas using Nvidia 3090 * 8"),
        "workload.library_bug"
    );
    assert_eq!(
        top("RuntimeError: CUDA error: peer access is not supported between these two devices\n2x A100 PCIe passed through to a KVM virtual machine"),
        "probe.p2p"
    );
}

/// Issue #14 round 5: NCCL's IB/RoCE transport failing is the network between the nodes.
#[test]
fn nccl_infiniband_and_roce_failures_are_the_network() {
    assert_eq!(
        top("transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129"),
        "workload.nccl"
    );
    assert_eq!(
        top("misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed with error Network is unreachable"),
        "workload.nccl"
    );
    assert_eq!(
        explain("NCCL WARN NET/IB : Got completion with error 12")
            .matches
            .first()
            .map(|m| m.id.as_str()),
        Some("nccl.net_ib")
    );
}

/// Issue #14 round 5: "invalid device ordinal" with the launch's process count or a rank used as
/// the device is the job's launch, even where CUDA_VISIBLE_DEVICES is set.
#[test]
fn invalid_ordinal_from_the_launchers_process_count_is_the_job() {
    assert_eq!(
        top("CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch --nproc_per_node=4 train.py\nRuntimeError: cuda runtime error (101) : invalid device ordinal"),
        "workload.library_bug"
    );
    assert_eq!(
        top("CUDA_VISIBLE_DEVICES=3 python train.py\nRuntimeError: CUDA error: invalid device ordinal"),
        "env.visible_devices_invalid"
    );
}

/// Issue #14 round 5: NCCL's "unhandled cuda error" is decided by what the paste says around it:
/// an NCCL 1.x is too old, a kernel fault earlier is the job's, an NCCL built for another CUDA.
#[test]
fn nccl_unhandled_cuda_error_reads_the_evidence_around_it() {
    assert_eq!(
        top("# NCCL Tests compiled with NCCL 1.0\nNCCL failure all_reduce.cu:95 'unhandled cuda error'"),
        "workload.library_bug"
    );
    assert_eq!(
        top("RuntimeError: CUDA error: an illegal memory access was encountered\nRuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5"),
        "workload.illegal_address"
    );
    assert_eq!(
        top("Check failed: result == ncclSuccess (1 vs. 0)  unhandled cuda error\nlibnccl2=2.1.15-1+cuda9.0 installed, the build uses CUDA 8"),
        "torch.wheel_deps_mismatch"
    );
}

/// Issue #14 round 5: a batch job that sees no GPU is the job's request (or its container), not
/// the node's driver; the same message with no scheduler in the paste keeps its old answer.
#[test]
fn a_batch_job_without_a_gpu_is_its_request() {
    assert_eq!(
        top("I found the issue in my slurm-submission script.\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."),
        "workload.gpu_not_requested"
    );
    assert_eq!(
        top("srun --gpus=2 --container-image=myimage --pty bash -i\nRuntimeError: Found no NVIDIA driver on your system."),
        "host.container_no_gpu"
    );
    assert_ne!(
        top("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."),
        "workload.gpu_not_requested"
    );
}

/// Issue #14 round 5: tensors on two devices, MIG resources in Kubernetes, and the GPU
/// operator's validators on an NVSwitch system.
#[test]
fn placement_mig_resources_and_operator_validators() {
    assert_eq!(
        top("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0!"),
        "workload.library_bug"
    );
    assert_eq!(
        top("nvidia.com/gpu:          2\n  nvidia.com/mig-1g.10gb:  6\nthe `nvidia.com/gpu` request fails to inject GPU."),
        "gpu.mig_enabled"
    );
    assert_eq!(
        top("nvidia-cuda-validator-k6tbm 0/1 Init:CrashLoopBackOff on an A100 HGX with NVSwitch"),
        "driver.fabric_manager"
    );
    assert_eq!(
        top("nvidia-operator-validator-d5c26 0/1 Init:CrashLoopBackOff\ntoolkit-validation: containerd is not configured"),
        "host.container_no_gpu"
    );
}

/// Issue #14 round 5: NCCL's bootstrap finding no interface, sockets refused between ranks and
/// its "internal error" are the network between the ranks.
#[test]
fn nccl_bootstrap_and_socket_failures_are_the_network() {
    for text in [
        "ncclInternalError: Internal check failed.\nLast error:\nBootstrap : no socket interface found",
        "include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol",
        "Test NCCL failure common.cu:959 'internal error - please report this issue to the NCCL developers / '",
    ] {
        assert_eq!(top(text), "workload.nccl", "{text}");
    }
    assert_eq!(
        explain("Bootstrap : no socket interface found")
            .matches
            .first()
            .map(|m| m.id.as_str()),
        Some("nccl.socket_bootstrap")
    );
}

/// Issue #14 round 5: Slurm's gres configuration draining a node is the scheduler's
/// configuration; the device plugin failing to load NVML in its pod is the node's runtime.
#[test]
fn slurm_gres_configuration_and_the_device_plugin_without_nvml() {
    assert_eq!(
        top("slurmd[57977]: fatal: gres.conf duplicate records for gpu"),
        "host.scheduler_config"
    );
    assert_eq!(
        top("State=IDLE+DRAIN\nReason=gres/gpu count reported lower than configured (0 < 8)"),
        "host.scheduler_config"
    );
    let missing_node =
        explain("slurmd: fatal: can't stat gres.conf file /dev/nvidia0: No such file or directory");
    let causes: Vec<&str> = missing_node.matches[0]
        .causes
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        causes[..2],
        ["host.scheduler_config", "driver.module_not_loaded"]
    );
    assert_eq!(
        top("nvidia-device-plugin-daemonset: Nvml init failed: ERROR_LIBRARY_NOT_FOUND\nI can use my gpu in docker"),
        "host.container_no_gpu"
    );
    assert!(KNOWN_IDS.contains(&"host.scheduler_config"));
    assert!(KNOWN_IDS.contains(&"workload.gpu_not_requested"));
}

/// Issue #14 round 5: launchers: the rendezvous port held by another run, and DeepSpeed's
/// launcher choosing GPUs itself over CUDA_VISIBLE_DEVICES.
#[test]
fn launcher_port_and_deepspeed_device_selection_are_the_job() {
    assert_eq!(
        top("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use)."),
        "workload.nccl"
    );
    assert_eq!(
        top("CUDA_VISIBLE_DEVICES=0,2 deepspeed train.py\nValueError: No slot '2' specified on host 'localhost'"),
        "workload.library_bug"
    );
    assert_eq!(
        explain("Detected CUDA_VISIBLE_DEVICES=2,4,5,7 but ignoring it because one or several of --include/--exclude/--num_gpus/--num_nodes cl args were used.")
            .matches
            .first()
            .map(|m| m.id.as_str()),
        Some("deepspeed.launcher_devices")
    );
}

/// Issue #14 round 5: a Slurm paste whose nvidia-smi fails on the node itself, outside the job,
/// is the node's driver, not the job's request.
#[test]
fn a_batch_node_whose_driver_fails_outside_the_job_is_the_driver() {
    assert_eq!(
        top("sbatch job fails; ssh into the compute node and nvidia-smi there too:\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\nmodprobe: FATAL: Module nvidia not found"),
        "driver.module_not_loaded"
    );
}

/// Issue #14 round 5: two containers of one pod each asking for a GPU ask the node for two.
#[test]
fn gpus_requested_by_two_containers_of_one_pod_add_up() {
    let pod = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu\n  containers:\n  - name: a\n    resources:\n      limits:\n        nvidia.com/gpu: 1\n  - name: b\n    resources:\n      limits:\n        nvidia.com/gpu: 1";
    assert_eq!(top(pod), "gpu.busy");
    assert_eq!(
        top("0/1 nodes are available: 1 Insufficient nvidia.com/gpu\n  containers:\n  - name: a\n    resources:\n      limits:\n        nvidia.com/gpu: 1"),
        "host.container_no_gpu"
    );
}

/// Issue #14 round 5: Windows failing to load one of torch's own DLLs is the Visual C++ runtime;
/// one of the build's CUDA DLLs is the install's CUDA libraries; text that names no DLL of torch
/// is no such failure.
#[test]
fn windows_torch_dll_failures_name_the_runtime_or_the_cuda_libraries() {
    assert_eq!(
        top(
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "C:\env\lib\site-packages\torch\lib\c10.dll" or one of its dependencies."#
        ),
        "host.msvc_runtime_missing"
    );
    assert_eq!(
        top(
            r"FileNotFoundError: Could not find module 'C:\Python38\lib\site-packages\torch\lib\asmjit.dll' (or one of its dependencies). Try using the full path with constructor syntax."
        ),
        "host.msvc_runtime_missing"
    );
    assert_eq!(
        top(
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "C:\Python310\lib\site-packages\torch\lib\caffe2_nvrtc.dll" or one of its dependencies."#
        ),
        "torch.wheel_deps_mismatch"
    );
    assert_eq!(
        top("Microsoft Visual C++ Redistributable is not installed, this may lead to the DLL load failure.\nImportError: DLL load failed: The specified module could not be found."),
        "host.msvc_runtime_missing"
    );
    assert!(explain(
        "OSError: [WinError 126] The specified module could not be found: 'C:\\tools\\foo.dll'"
    )
    .matches
    .iter()
    .all(|m| m.id != "windows.torch_dll_load_failed"));
}

/// Issue #14 round 5: cuDNN's zlibwapi.dll missing is an incomplete cuDNN install; a 32-bit copy
/// found first (error 193) is the PATH.
#[test]
fn cudnn_zlibwapi_missing_or_32_bit() {
    assert_eq!(
        top("Could not locate zlibwapi.dll. Please make sure it is in your library path!"),
        "torch.wheel_deps_mismatch"
    );
    assert_eq!(
        top("Could not load library zlibwapi.dll. Error code 193. Please verify that the library is built correctly for your processor architecture (32-bit, 64-bit)"),
        "torch.libs_shadowed"
    );
}

/// Issue #14 round 5: the launch timeout (702) and a CUDA failure while the screen went black are
/// the display watchdog; an Xid beside the black screen is the GPU.
#[test]
fn launch_timeouts_and_black_screens_are_the_display_watchdog() {
    assert_eq!(
        top("RuntimeError: CUDA error: the launch timed out and was terminated"),
        "gpu.display_watchdog"
    );
    assert_eq!(top("CUDA_ERROR_LAUNCH_TIMEOUT"), "gpu.display_watchdog");
    assert_eq!(
        top("crashes after a few seconds with \"CUDA error = 999 at main.cu:196 'cudaDeviceSynchronize()'\".\n(Also my screen goes black for a second)"),
        "gpu.display_watchdog"
    );
    assert_eq!(
        top("CUDA error: unknown error\nthe screen went black\nNVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus."),
        "gpu.lost"
    );
}

/// Issue #14 round 5: TensorFlow's cudart dlerror alone is its CPU fallback ("none"); with a GPU
/// the user expected, or a failure after it, it is the missing CUDA libraries.
#[test]
fn tensorflow_cudart_dlerror_is_a_warning_unless_the_gpu_was_expected() {
    let warning = "2022-06-22 15:44:53.578885: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found";
    assert_eq!(top(warning), "none");
    assert_eq!(
        top(&format!(
            "{warning}\nOfc I have a GPU in my computer (GeForce RTX 3060)"
        )),
        "torch.wheel_deps_mismatch"
    );
    assert_eq!(
        top(&format!("{warning}\nW tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to use GPU.")),
        "torch.wheel_deps_mismatch"
    );
}

/// Issue #14 round 5: CUDA asked for on a Mac is no NVIDIA GPU, not a CPU build to replace;
/// without a Mac named it stays the CPU build.
#[test]
fn cuda_on_a_mac_is_no_nvidia_gpu() {
    assert_eq!(
        top("AssertionError: Torch not compiled with CUDA enabled\nnot sure why..? im on an m1 macbook pro if that helps."),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("(OSX) Torch not compiled with CUDA enabled"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("AssertionError: Torch not compiled with CUDA enabled"),
        "torch.cpu_only"
    );
}

/// Issue #14 round 5: ROCm/HIP and Intel XPU texts are no NVIDIA GPU; torch's collect_env lines
/// "HIP runtime version: N/A" are no such evidence.
#[test]
fn rocm_and_xpu_texts_are_no_nvidia_gpu() {
    assert_eq!(
        top("RuntimeError: HIP error: invalid device function\nHIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top(
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "C:\ai\sdnext\venv\lib\site-packages\torch\lib\c10_xpu.dll" or one of its dependencies."#
        ),
        "host.no_nvidia_gpu"
    );
    assert!(explain("HIP runtime version: N/A\nMIOpen runtime version: N/A\nRuntimeError: CUDA error: out of memory")
        .matches
        .iter()
        .all(|m| m.id != "gpu_stack.not_nvidia"));
}

/// Issue #14 round 5: Jetson: torch that reports no CUDA is a non-Jetson (CPU) wheel; CUDA
/// libraries missing in an l4t container are the NVIDIA runtime's mounts; the same library
/// missing on a bare Jetson stays the wheel's.
#[test]
fn jetson_torch_and_l4t_containers() {
    assert_eq!(
        top("I successfully install the torch on my jetson nano(Jetpack 4.4 [L4T 32.4.3]),but cuda.is_available() returns false"),
        "torch.cpu_only"
    );
    let missing =
        "OSError: libcurand.so.10: cannot open shared object file: No such file or directory";
    assert_eq!(
        top(&format!("docker run -it --rm --runtime nvidia nvcr.io/nvidia/l4t-pytorch:r32.6.1-pth1.8-py3\n>>> import torch\n{missing}")),
        "host.container_no_gpu"
    );
    assert_ne!(
        top(&format!(
            "My device is Jetson Nano, using JetPack4.3.\n>>> import torch\n{missing}"
        )),
        "host.container_no_gpu"
    );
}

/// Issue #14 round 5: nvidia-smi failing under WSL: WSL 1 has no GPU; WSL 2 with a Linux driver
/// installed inside is the driver; a container inside WSL 2 is the container.
#[test]
fn nvidia_smi_failing_under_wsl() {
    let smi = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.";
    assert_eq!(
        top(&format!(
            "Ubuntu on WSL 1, kernel 4.4.0-19041-Microsoft\n{smi}"
        )),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top(&format!(
            "WSL2, Ubuntu 22.04: sudo apt install nvidia-driver-535\n{smi}"
        )),
        "driver.not_installed"
    );
    assert_eq!(
        top("RuntimeError: Found no NVIDIA driver on your system\nrunning everything from inside WSL2 with podman"),
        "host.container_no_gpu"
    );
}

/// Issue #14 round 5: a library path with non-ASCII characters, said in words or shown in a
/// failing path; an ASCII path with the same failure is not it.
#[test]
fn non_ascii_library_paths() {
    assert_eq!(
        top("Failed to load dynamic library on Windows when the user name and path have Chinese characters.\nUnable to load CUDA management library c:\\Windows\\System32\\nvml.dll"),
        "host.non_ascii_path"
    );
    assert_eq!(
        top(
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "C:\Users\张三\AppData\Local\Programs\Python\Python310\lib\site-packages\torch\lib\c10.dll" or one of its dependencies."#
        ),
        "host.non_ascii_path"
    );
    assert_eq!(
        top(
            r#"OSError: [WinError 126] The specified module could not be found. Error loading "C:\Users\alice\AppData\Local\Programs\Python\Python310\lib\site-packages\torch\lib\c10.dll" or one of its dependencies."#
        ),
        "host.msvc_runtime_missing"
    );
}

/// Issue #14 round 5: a bare WinError 126 is the Visual C++ runtime first.
#[test]
fn a_bare_winerror_126_is_the_cpp_runtime_first() {
    assert_eq!(
        top("OSError: [WinError 126] The specified module could not be found."),
        "host.msvc_runtime_missing"
    );
}

/// Issue #14 round 5: CUDA unavailable where the paste names an AMD or Intel GPU is no NVIDIA
/// GPU; a laptop CPU "with Radeon Graphics" beside a GeForce is not.
#[test]
fn cuda_unavailable_beside_a_non_nvidia_gpu() {
    assert_eq!(
        top("I have an AMD GPU (RX 6500M) on Windows, and torch.cuda.is_available() always returns False."),
        "host.no_nvidia_gpu"
    );
    assert_ne!(
        top("AMD Ryzen 7 5800H with Radeon Graphics, NVIDIA GeForce RTX 3070 Laptop GPU\ntorch.cuda.is_available() returns False"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("# rocminfo\nROCk module is NOT loaded, possibly no GPU devices"),
        "host.no_nvidia_gpu"
    );
}

/// Issue #14 round 5: MPS's out of memory is the job's size on a Mac.
#[test]
fn mps_out_of_memory_is_the_job() {
    assert_eq!(
        top("RuntimeError: MPS backend out of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: 9.07 GB). Tried to allocate 6.25 MB on private pool."),
        "workload.out_of_memory"
    );
}

/// Issue #14 round 5: a prebuilt runner's CUDA error on a Jetson is the program's Jetson
/// support; an out of memory there stays memory.
#[test]
fn a_runner_failing_on_a_jetson() {
    assert_eq!(
        top("This issue only occurs on the Orin device.\nError: llama runner process has terminated: CUDA error: the resource allocation failed\n  current device: 0, in function cublas_handle at ggml/src/ggml-cuda/common.cuh:644"),
        "workload.library_bug"
    );
    assert_eq!(
        top("Jetson Orin Nano, ollama run llama3.1\nggml_cuda_host_malloc: failed to allocate 1024.00 MiB of pinned memory: out of memory\ncudaMalloc failed: out of memory"),
        "workload.out_of_memory"
    );
}

/// Issue #14 round 5: NVML's "GPU access blocked by the operating system" is WSL's or GPU-PV's
/// Windows driver files; Windows Server or TCC mode is the host not sharing the GPU.
#[test]
fn gpu_access_blocked_by_the_operating_system() {
    let msg = "Failed to initialize NVML: GPU access blocked by the operating system";
    assert_eq!(top(msg), "driver.not_installed");
    assert_eq!(
        top(&format!(
            "Microsoft Windows [Version 10.0.20348.1787], WSL 2\n{msg}"
        )),
        "host.no_nvidia_gpu"
    );
}

/// Issue #14 round 5: "not compiled with CUDA" beside an Intel Arc / XPU GPU is no NVIDIA GPU,
/// not a CPU build to replace; beside a GeForce it stays the CPU build.
#[test]
fn not_compiled_with_cuda_beside_an_intel_gpu() {
    assert_eq!(
        top("AssertionError: Torch not compiled with CUDA enabled\nGPU: Intel(R) Arc(TM) A770 Graphics, using XPU"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("AssertionError: Torch not compiled with CUDA enabled\nIntel(R) UHD Graphics 630, NVIDIA GeForce RTX 3060"),
        "torch.cpu_only"
    );
}

fn known(cause: &str, similarity: f64, n: u32) -> similar::KnownCase {
    similar::KnownCase {
        id: format!("case-{n}"),
        source: format!("https://example.org/thread/{n}"),
        cause: cause.to_string(),
        similarity,
    }
}

fn generic_with(causes: &[(&str, f64)], extracted: &[(&str, &str)]) -> Match {
    Match {
        id: GENERIC_MATCH.to_string(),
        title: String::new(),
        text: String::new(),
        span: [0, 1],
        line: 1,
        occurrences: 1,
        priority: 1,
        extracted: extracted
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        causes: causes
            .iter()
            .map(|(id, w)| RankedCause {
                id: id.to_string(),
                confidence: 0.0,
                why: String::new(),
                fix: String::new(),
                commands: Vec::new(),
                evidence: Vec::new(),
                weight: *w,
                observed: false,
            })
            .collect(),
        tells_apart: String::new(),
    }
}

/// Issue #14, the casebook: the known cases' votes re-rank the generic answer (and bring the
/// causes it lacked, with a rule's why and fix and the threads as evidence), but never overrule
/// a CUDA status or NVML code the text names, nor turn the workload's fault into the machine's.
#[test]
fn known_cases_vote_on_the_generic_answer_within_limits() {
    let near = [
        known("driver.device_nodes", 0.6, 1),
        known("driver.device_nodes", 0.5, 2),
        known("gpu.busy", 0.2, 3),
    ];
    let mut m = generic_with(
        &[("driver.cuda_init_failed", 0.15), ("torch.cpu_only", 0.05)],
        &[],
    );
    known_cases_vote(&mut m, &near);
    assert_eq!(m.causes[0].id, "driver.device_nodes");
    assert!(
        m.causes[0].why.contains("/dev/nvidia"),
        "{}",
        m.causes[0].why
    );
    assert!(m.causes[0].evidence[0].contains("https://example.org/thread/1"));
    assert!(m.causes.iter().map(|k| k.confidence).sum::<f64>() <= 1.0 + 1e-9);

    for read in [
        ("cuda_error", "999"),
        ("nvml_error", "NVML_ERROR_UNKNOWN"),
        ("version_check", "9.2 against a minimum of 10.0"),
    ] {
        let before = generic_with(&[("driver.uvm_unavailable", 0.3)], &[read]);
        let mut m = before.clone();
        known_cases_vote(&mut m, &near);
        assert_eq!(m, before, "what the text states ({read:?}) keeps its cause");
    }

    let mut m = generic_with(&[("workload.out_of_memory", 0.2), ("gpu.busy", 0.08)], &[]);
    known_cases_vote(&mut m, &near);
    assert_eq!(m.causes[0].id, "workload.out_of_memory");
}

/// Issue #14, the casebook: a text neither a rule nor the generic answer knows is answered from
/// known cases only when the nearest is very like it, and not when such texts were harmless.
#[test]
fn known_cases_answer_alone_only_when_very_alike_and_not_harmless() {
    let text = "  \nthe model hangs after the first step on both cards\n";
    let m = known_cases_match(
        text,
        &[known("probe.p2p", 0.62, 1), known("workload.nccl", 0.3, 2)],
    )
    .expect("very alike");
    assert_eq!(m.id, KNOWN_CASES_MATCH);
    assert_eq!(m.causes[0].id, "probe.p2p");
    assert_eq!(m.line, 2);
    assert_eq!(m.text, "the model hangs after the first step on both cards");
    let crlf = "\r\nthe model hangs after the first step\r\n";
    let m = known_cases_match(crlf, &[known("probe.p2p", 0.62, 1)]).expect("very alike");
    assert_eq!(
        (m.line, &crlf[m.span[0]..m.span[1]]),
        (2, "the model hangs after the first step\r")
    );
    assert!(known_cases_match(text, &[known("probe.p2p", 0.45, 1)]).is_none());
    // An informational line that tells no failure is not answered from resemblance.
    assert!(known_cases_match(
        "INFO: Using FlashAttention-2 backend on this GPU",
        &[known("ext.arch_unsupported", 0.9, 1)]
    )
    .is_none());
    assert!(
        known_cases_match(text, &[known("none", 0.9, 1), known("probe.p2p", 0.6, 2)]).is_none()
    );
    assert!(known_cases_match(text, &[]).is_none());
}

/// Issue #14, the casebook: every answer lists the known cases most like the text (links to
/// threads whose cause was established), most alike first; `diagnose`'s rules-only explain
/// lists none.
#[test]
fn explain_lists_the_known_cases_most_like_the_text() {
    let ex = explain("Failed to initialize NVML: Driver/library version mismatch");
    assert!(!ex.similar.is_empty() && ex.similar.len() <= similar::SHOWN);
    assert_eq!(ex.similar[0].cause, "driver.library_mismatch");
    assert!(ex
        .similar
        .iter()
        .all(|c| c.source.starts_with("http") && c.similarity >= similar::SHOWN_SIMILARITY));
    assert!(ex
        .similar
        .windows(2)
        .all(|w| w[0].similarity >= w[1].similarity));
    assert!(explain_by_rules(
        "Failed to initialize NVML: Driver/library version mismatch",
        ""
    )
    .similar
    .is_empty());
    assert!(explain("hello world").similar.is_empty());
}

/// The rule set runs without Unicode over the ASCII shadow: it must say exactly which rules'
/// own (Unicode) patterns match, on every real text of the development corpus.
#[test]
fn the_ascii_rule_set_agrees_with_each_rules_own_pattern() {
    #[derive(serde::Deserialize)]
    struct File {
        #[serde(default)]
        case: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        text: String,
        #[serde(default)]
        split: Option<String>,
    }
    let set = rule_set().expect("the set builds");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/errors");
    let mut texts = vec![
        "«CUDA error: out of memory» — ünïcödé ＣＵＤＡ".to_string(),
        "> RuntimeError: CUDA error: no kernel image is available\n> quoted".to_string(),
    ];
    for e in std::fs::read_dir(dir).expect("corpus") {
        let path = e.expect("entry").path();
        if path.extension().is_some_and(|x| x == "toml") {
            let f: File =
                toml::from_str(&std::fs::read_to_string(&path).expect("read")).expect("parse");
            texts.extend(
                f.case
                    .into_iter()
                    .filter(|c| c.split.as_deref().is_none_or(|s| s == "dev"))
                    .map(|c| c.text),
            );
        }
    }
    assert!(texts.len() > 500);
    for original in &texts {
        let shadow = unquote(ascii_shadow(original));
        let hits = set.matches(shadow.as_bytes());
        for (i, c) in compiled().iter().enumerate() {
            let own = c.re().is_some_and(|re| re.is_match(&shadow));
            assert_eq!(hits.matched(i), own, "rule {} on {:?}", c.rule.id, original);
        }
    }
}

/// Issue #14 round 6a (field sample research-2026-11i): the rules' top cause, without the
/// casebook, for wordings other than the sample's own.
fn rules_top(text: &str) -> String {
    top_cause(&explain_by_rules(text, ""))
        .map(|c| c.id.clone())
        .unwrap_or_default()
}

fn rules_match_ids(text: &str) -> Vec<String> {
    explain_by_rules(text, "")
        .matches
        .iter()
        .map(|m| m.id.clone())
        .collect()
}

/// CPU-only framework builds: fp16 ops without a CPU kernel, TensorFlow 2.11+ on native
/// Windows, ONNX Runtime's provider list without CUDA.
#[test]
fn round6a_cpu_only_builds_are_read_from_their_symptoms() {
    let half = "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'";
    assert_eq!(rules_top(half), "torch.cpu_only");
    assert_eq!(
        rules_top(&format!("{half}\ntorch==2.1.2+cpu on Windows 11")),
        "torch.cpu_only"
    );
    assert_eq!(
        rules_top("I run TensorFlow 2.15 on Windows 10 and tf.config.list_physical_devices() shows only /physical_device:CPU:0 although nvidia-smi sees my RTX 3070"),
        "torch.cpu_only"
    );
    // TensorFlow showing a GPU device (DirectML, WSL) has one.
    assert_ne!(
        rules_top("TensorFlow 2.13 on Windows 11: Created device /job:localhost/replica:0/task:0/device:GPU:0 with 6000 MB memory, then training is slow"),
        "torch.cpu_only"
    );
    // TensorFlow 2.10 is the last with a native Windows GPU build: not this rule.
    assert!(
        !rules_match_ids("tensorflow 2.10 on Windows 10: GPU not used")
            .contains(&"tensorflow.windows_native".to_string())
    );
    assert_eq!(
        rules_top("print(ort.get_available_providers())\nAvailable providers: ['AzureExecutionProvider', 'CPUExecutionProvider']"),
        "torch.cpu_only"
    );
    assert!(!rules_match_ids(
        "Available providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']"
    )
    .contains(&"onnxruntime.cpu_package".to_string()));
}

/// Notebook runtimes and containers that never got a GPU.
#[test]
fn round6a_sessions_and_containers_without_a_gpu() {
    let colab = "Running the notebook on Google Colab:\n>>> torch.cuda.is_available()\nFalse";
    assert_eq!(rules_top(colab), "workload.gpu_not_requested");
    // Above the message's own rule: a Kaggle session's "no NVIDIA driver" is its accelerator.
    assert_eq!(
        rules_top("RuntimeError: Found no NVIDIA driver on your system.\n(in a Kaggle notebook)"),
        "workload.gpu_not_requested"
    );
    // The user did select a GPU runtime: something in the notebook broke the framework.
    assert_ne!(
        rules_top(&format!(
            "{colab}\nI changed the runtime type to GPU (T4) and reconnected"
        )),
        "workload.gpu_not_requested"
    );
    assert_eq!(
        rules_top("After docker compose up the GPU is not detected inside the container, nvidia-smi works on the host"),
        "host.container_no_gpu"
    );
}

/// "invalid device ordinal" where the paste says the code wants more GPUs than the machine
/// has: the program's device count, even with CUDA_VISIBLE_DEVICES in the text.
#[test]
fn round6a_invalid_ordinal_from_a_program_wanting_more_gpus() {
    let text = "RuntimeError: CUDA error: invalid device ordinal\nI set CUDA_VISIBLE_DEVICES=0 on my single RTX 3090; the training script expects 4 GPUs by default";
    assert_eq!(rules_top(text), "workload.library_bug");
    // Without such words the variable stays the likeliest cause (unit test above).
    assert_eq!(
        rules_top("$ CUDA_VISIBLE_DEVICES=1 python train.py\nRuntimeError: CUDA error: invalid device ordinal"),
        "env.visible_devices_invalid"
    );
}

/// cuDNN loaded newer than the framework was compiled with: an older framework copy is the
/// one imported; loaded older stays a shadowing cuDNN.
#[test]
fn round6a_cudnn_loaded_newer_than_compiled_is_another_framework_install() {
    assert!(cudnn_loaded_newer(
        "Loaded runtime CuDNN library: 6021 (compatibility version 6000) but source was compiled with 5110"
    ));
    assert!(cudnn_loaded_newer(
        "Loaded cudnn library: 5005 but source was compiled against 5004"
    ));
    assert!(cudnn_loaded_newer(
        "Loaded runtime CuDNN library: 9.3.0 but source was compiled with: 9.1.0."
    ));
    assert!(!cudnn_loaded_newer(
        "Loaded runtime CuDNN library: 7.0.5 but source was compiled with: 7.2.1."
    ));
    assert!(!cudnn_loaded_newer(
        "Loaded runtime CuDNN library: 90000 but source was compiled with: 90100"
    ));
    assert!(!cudnn_loaded_newer("Loaded runtime CuDNN library: x.y"));
    assert_eq!(
        rules_top("E tensorflow/stream_executor/cuda/cuda_dnn.cc] Loaded runtime CuDNN library: 6021 (compatibility version 6000) but source was compiled with 5110 (compatibility version 5100)."),
        "torch.multiple_installs"
    );
    assert_eq!(
        rules_top("E cuda_dnn.cc] Loaded runtime CuDNN library: 7.0.5 but source was compiled with: 7.2.1.  If using a binary install, upgrade your CuDNN library."),
        "torch.libs_shadowed"
    );
}

/// Library bugs and failing hardware behind kernel faults; PTX from a newer toolkit; an
/// engine read by another TensorRT; "no NVIDIA driver" on a machine without an NVIDIA GPU.
#[test]
fn round6a_kernel_faults_ptx_engines_and_machines_without_nvidia() {
    assert_eq!(
        rules_top("The model trains fine on a GTX 1080 but on the A100 it crashes: RuntimeError: CUDA error: an illegal memory access was encountered"),
        "workload.library_bug"
    );
    assert_eq!(
        rules_top("cudaErrorMisalignedAddress: misaligned address, only with CUDA 12.1 and later"),
        "workload.library_bug"
    );
    assert_eq!(
        rules_top("RuntimeError: CUDA error: an illegal memory access was encountered"),
        "workload.illegal_address"
    );
    assert_eq!(
        rules_top("RuntimeError: CUDA error: unspecified launch failure\nAfter this the GPU is unusable until I reboot the server."),
        "gpu.lost"
    );
    assert_eq!(
        rules_top("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain."),
        "driver.too_old_for_toolkit"
    );
    assert_eq!(
        rules_top("engine.cpp: Assertion `size >= bsize && \"Mismatch between allocated memory size and expected size of serialized engine.\"' failed."),
        "ext.abi_mismatch"
    );
    let no_driver = "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx";
    // alone, most often a machine without an NVIDIA GPU; with one named, its driver is missing
    assert_eq!(rules_top(no_driver), "host.no_nvidia_gpu");
    assert_eq!(
        rules_top(&format!("{no_driver}\nThe machine has an RTX 3090.")),
        "driver.not_installed"
    );
    assert_eq!(
        rules_top(&format!(
            "{no_driver}\nMy notebook does not have an NVIDIA graphics card, only Intel graphics."
        )),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        rules_top(&format!("{no_driver}\nI am running on the CPU.")),
        "host.no_nvidia_gpu"
    );
}

/// Issue #14, round 6b (field sample 11j): system-level situations in other people's wordings
/// (none of these texts is a corpus case) rank the machine cause first; rules only, so the
/// casebook cannot carry them.
#[test]
fn round_6b_system_families_in_new_wordings() {
    let rules_top = |t: &str| {
        let ex = explain_by_rules(t, "");
        top_cause(&ex).map_or_else(|| "(none)".to_string(), |k| k.id.clone())
    };
    let cases: &[(&str, &str)] = &[
        // The kernel module not built or not loading.
        ("Building module: cleaning build area... make -j8 KERNELRELEASE=6.8.0-45-generic\nCompiler version check failed: the kernel was built with gcc 13, you have gcc 12", "driver.module_not_loaded"),
        ("ERROR: modpost: GPL-incompatible module nvidia-uvm.ko uses GPL-only symbol '__rcu_read_lock'", "driver.module_not_loaded"),
        ("E: Unable to locate package linux-headers-6.5.0-1014-gcp", "driver.module_not_loaded"),
        ("ERROR: The nvidia kernel module was not created.", "driver.module_not_loaded"),
        ("after the update my nvidia kernel module is not loaded anymore, the screen is black", "driver.module_not_loaded"),
        ("the cloud-init script hangs: the installer is waiting for a password for the MOK key while installing the nvidia driver", "driver.module_not_loaded"),
        ("docker: Error response from daemon: failed to create shim task: could not load the UVM kernel module after restarting the VM", "driver.module_not_loaded"),
        ("Error gathering device information: /dev/nvidia-uvm: no such file or directory (after a reboot there is no nvidia device in /dev)", "driver.module_not_loaded"),
        // Containers without the GPUs.
        ("docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "host.container_no_gpu"),
        ("python3: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libcudnn.so.8: file too short (inside the l4t-base container)", "host.container_no_gpu"),
        ("kubectl describe node gpu-1 shows   nvidia.com/gpu:     0 although the plugin pod is running", "host.container_no_gpu"),
        // Fabric Manager, throttling, no NVIDIA GPU, legacy GPUs.
        ("nv-fabricmanager: fabric manager version 550.54.15 does not match with driver version 550.90.07", "driver.fabric_manager"),
        ("Clocks Event Reasons\n    HW Thermal Slowdown : Active", "gpu.throttled"),
        ("My laptop GPU throttling kicks in at 60 C, far below the slowdown temperature", "gpu.throttled"),
        ("the GPU overheats and the training is getting slower and slower", "gpu.throttled"),
        ("LibMambaUnsatisfiableError: nothing provides __cuda needed by jaxlib-0.4.23-cuda120 (building the docker image on a CPU-only CI runner)", "host.no_nvidia_gpu"),
        ("nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. The node is a Tesla K80 on the new image.", "driver.gpu_unsupported"),
        ("[warn] GPU #0 (GeForce GTX 470): not compiled for this GPU architecture, skipped", "ext.arch_unsupported"),
        // Extensions built for another arch or ABI; stub libraries; host compilers.
        ("NCCL WARN Cuda failure 'named symbol not found' (NCCL built with NVCC_GENCODE for sm_70 only)", "ext.arch_unsupported"),
        ("[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, expecting library version 10.0.1 got 10.3.0, please rebuild.", "ext.abi_mismatch"),
        ("numba.cuda.cudadrv.error.CudaDriverError: driver missing function: cuDeviceGetUuid_v2", "driver.stub_library"),
        ("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH", "toolkit.host_compiler_unsupported"),
        ("OSError: libnvvm.so: cannot open shared object file: No such file or directory (numba)", "toolkit.not_found"),
        // CUDA initialisation below the program.
        ("RuntimeError: CUDA error: unknown error on WSL2 (Ubuntu 24.04); training with --resume_from ckpt", "driver.cuda_init_failed"),
        ("cudaErrorDevicesUnavailable: all CUDA-capable devices are busy or unavailable, though nvidia-smi shows 0% utilization; the vGPU licence expired", "driver.cuda_init_failed"),
        ("NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\nNVRM: BAR1 is 0M @ 0x0 (PCI:0000:65:00.0)\nNVRM: The NVIDIA probe routine failed for 1 device(s).", "gpu.missing"),
    ];
    for (text, want) in cases {
        assert_eq!(&rules_top(text), want, "{text}");
    }
}

/// Issue #14, round 6b: the controls of field sample 11j in other wordings do not blame the
/// machine: NCCL's INFO line about its optional network plugin, and a TensorRT plan read back
/// as version 0.0.0 (text-mode I/O: the program's own fault).
#[test]
fn round_6b_informational_lines_and_the_programs_own_io_blame_no_machine() {
    for text in [
        "node01:1234:1234 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        "NCCL INFO NET/Plugin: Failed to open libnccl-net.so : libnccl-net.so: cannot open shared object file: No such file or directory",
        // A healthy `nvidia-smi -q` prints its limits and inactive slowdowns.
        "    Temperature\n        GPU Current Temp                  : 41 C\n        GPU Max Operating Temp            : 87 C\n    Clocks Event Reasons\n        SW Thermal Slowdown               : Not Active\n        HW Slowdown                       : Not Active",
        "ERROR: 1: [stdArchiveReader.cpp::StdArchiveReader::32] The engine plan file is not compatible with this version of TensorRT, expecting library version 8.6.1 got 0.0.0, please rebuild.",
    ] {
        let ex = explain_by_rules(text, "");
        let t = top_cause(&ex).map_or_else(|| "none".to_string(), |k| k.id.clone());
        assert!(t == "none" || t.starts_with("workload."), "{text}: {t}");
    }
    // A real NCCL failure after the INFO line is still NCCL's.
    let ex = explain_by_rules(
        "NCCL INFO NET/Plugin : No plugin found (libnccl-net.so)\nNCCL WARN NET/Socket : connect to 10.0.0.2<43521> failed : Connection refused\nncclSystemError: System call (e.g. socket, malloc) or external library call failed",
        "",
    );
    assert_ne!(top_cause(&ex).map(|k| k.id.as_str()), Some("none"));
    // A traceback no rule knows after the INFO line is not "nothing wrong".
    let ex = explain_by_rules(
        "NCCL INFO NET/Plugin : No plugin found (libnccl-net.so)\nTraceback (most recent call last):\n  File \"train.py\", line 9, in <module>\nRuntimeError: something went wrong in the collective",
        "",
    );
    assert_eq!(top_cause(&ex).map(|k| k.id.as_str()), Some("workload.nccl"));
}

/// Issue #14, round 7a (LLM stacks): an NGC image's driver banner, a paste that only says the
/// driver is too low, and vLLM's custom all-reduce failing inside NCCL, in wordings other than
/// the corpus's.
#[test]
fn round_7a_llm_stack_wordings() {
    fn top7a(text: &str) -> String {
        top_cause(&explain_by_rules(text, ""))
            .map(|c| c.id.clone())
            .unwrap_or_default()
    }
    for (text, want) in [
        // The NGC banner, as Triton server and the PyTorch container print it.
        ("=============================\n== Triton Inference Server ==\n=============================\nERROR: This container was built for NVIDIA Driver Release 545.23 or later, but\n       version 470.199.02 was detected and compatibility mode is UNAVAILABLE.", "driver.too_old_for_toolkit"),
        ("nvcr.io/nvidia/pytorch:24.01-py3\nERROR: This container was built for NVIDIA Driver Release 530.30 or later, but version 515.65.01 was detected", "driver.too_old_for_toolkit"),
        // Prose only: the driver is too old / outdated for the program.
        ("trtexec refuses to build the engine: it says my nvidia driver version is too old (470)", "driver.too_old_for_toolkit"),
        ("import torch works but torch.cuda fails, the message says the NVIDIA driver is outdated; torch 2.3.0+cu121", "driver.too_old_for_torch"),
        // vLLM's custom all-reduce (CUDA IPC) failing inside NCCL: the library's bug.
        ("RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\nLast error:\nCuda failure 'invalid argument'\nonly with custom_all_reduce enabled, tensor_parallel_size=2", "workload.library_bug"),
        // CUDA in a forked worker: the program's start method, the machine is fine.
        ("DataLoader worker (pid 4242) raised: RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method", "none"),
        // NCCL's error names as CuPy prints them, inside a container: /dev/shm.
        ("docker run --gpus all vllm/vllm-openai --tensor-parallel-size 2\ncupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_SYSTEM_ERROR: unhandled system error", "host.shm_small"),
        // The driver library lacks a driver-API entry point the program's runtime calls.
        ("llama.cpp server: failed to load libggml-cuda.so: /lib/x86_64-linux-gnu/libcuda.so.1: undefined symbol: cuCtxCreate_v4", "driver.too_old_for_toolkit"),
        ("level=WARN source=gpu.go:600 msg=\"unable to load cuda driver library\" library=C:\\Windows\\system32\\nvcuda.dll error=\"symbol lookup for cuDeviceGetUuid_v2 failed\" (ollama)", "driver.too_old_for_toolkit"),
        // Ollama reporting only its runner's exit status.
        ("Error: llama runner process has terminated: exit status 0xc0000139", "driver.too_old_for_toolkit"),
        ("Error: llama runner process has terminated: exit status 2", "workload.library_bug"),
        // Out of memory told in prose only.
        ("After upgrading sglang the 70B model keeps running out of GPU memory on two A100s", "workload.out_of_memory"),
    ] {
        assert_eq!(top7a(text), want, "{text}");
    }
    // A driver said to be too old never outranks a real error line in the same paste.
    let text = "the driver is too old I think\nRuntimeError: CUDA error: no kernel image is available for execution on the device";
    let ex = explain_by_rules(text, "");
    let primary = ex
        .primary
        .and_then(|i| ex.matches.get(i))
        .map(|m| m.id.as_str());
    assert_eq!(primary, Some("cuda.no_kernel_image"), "{text}");
}

// ---- round 7b (desktop machines): helper k7b's tests, self-contained.

/// Issue #14, round 7b: a build tool's or a process's exit status is no CUDA status. make's
/// "*** [all] Error 2", "failed with exit code 2", "exit status 2" are not read as CUDA status 2
/// (out of memory); a CUDA status named beside them still is.
#[test]
fn round_7b_a_build_tools_exit_status_is_no_cuda_status() {
    let status_of = |text: &str| {
        let m = generic::fallback(text, text).unwrap_or_else(|| panic!("no answer: {text}"));
        m.extracted.get("cuda_error").cloned().unwrap_or_default()
    };
    for text in [
        "libcuda kernel build:\nmake: *** [Makefile:12: all] Error 2",
        "make[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/ggml-cuda.dir/all] Error 2\nCUDA kernels failed to build",
        "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 2",
        "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 2. (building the CUDA extension)",
        "error: building the CUDA extension failed: nvcc exited with code 2",
        "FAILED: ggml-cuda.o\nninja: build stopped: subcommand failed.\nCUDA build failed: exit status 2",
    ] {
        let s = status_of(text);
        assert!(!s.starts_with('2'), "{text}: read as CUDA status {s}");
    }
    // A CUDA status in the same text is still read.
    let s =
        status_of("CUDA error: out of memory (cudaErrorMemoryAllocation)\nmake: *** [all] Error 1");
    assert!(s.starts_with('2'), "{s}");
    let s = status_of("cudaMalloc failed with error 2\nprocess exited with code 1");
    assert!(s.starts_with('2'), "{s}");
}

/// Issue #14, round 7b: confidences rounded to the percent never sum past 1, also where many
/// small weights each round up (found by explain_nonempty's proptest).
#[test]
fn round_7b_rounded_confidences_never_sum_past_one() {
    let cause = |i: usize, weight: f64| RankedCause {
        id: format!("c{i}"),
        confidence: 0.0,
        why: String::new(),
        fix: String::new(),
        commands: Vec::new(),
        evidence: Vec::new(),
        weight,
        observed: false,
    };
    // Ten weights of 0.0955 and one of 0.035 sum to 0.99; each rounded up they made 1.04.
    let mut causes: Vec<RankedCause> = (0..10).map(|i| cause(i, 0.0955)).collect();
    causes.push(cause(10, 0.035));
    let mut m = Match {
        id: "t".to_string(),
        title: String::new(),
        text: String::new(),
        span: [0, 1],
        line: 1,
        occurrences: 1,
        priority: 0,
        extracted: BTreeMap::new(),
        causes,
        tells_apart: String::new(),
    };
    rank(&mut m);
    let sum: f64 = m.causes.iter().map(|k| k.confidence).sum();
    assert!(sum <= 1.0001, "{sum}");
    assert!(sum >= 0.9, "{sum}");
}

/// Issue #14, round 7b: a library saying the driver's libcuda was not found, and cuDNN failing
/// to load because libcuda is missing (WSL 2's /usr/lib/wsl/lib), blame the driver's library,
/// in wordings that are not the corpus's.
#[test]
fn round_7b_libcuda_not_found_is_the_drivers_library() {
    let rules_top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "none".to_string(), |k| k.id.clone())
    };
    for text in [
        "WARNING: libcuda.so.1 not found, GPU acceleration disabled",
        "myapp: could not find libcuda; is the NVIDIA driver installed?",
        "Could not load library libcudnn_ops_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory",
        "Ubuntu under WSL2: Unable to load any of {libcudnn_cnn.so.9} (needs /usr/lib/wsl/lib/libcuda.so.1)",
    ] {
        assert_eq!(rules_top(text), "driver.not_installed", "{text}");
    }
    // In a container it is the container's GPUs; a cuDNN that is itself missing stays cuDNN's.
    assert_eq!(
        rules_top("docker run myimage: failed to load libcuda (no GPU passed to the container)"),
        "host.container_no_gpu"
    );
    assert_ne!(
        rules_top("Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file"),
        "driver.not_installed"
    );
}

/// Triton's "out of resource" (raised on purpose on a real H100, 2026-11-24) in the wordings
/// other GPUs and Triton releases print: a kernel configuration too big for the GPU's shared
/// memory, never the machine. Few people write Triton kernels: a bare message is a library's
/// kernel without a configuration for this GPU (its bug); one's own `@triton.jit` kernel is
/// one's own configuration.
#[test]
fn triton_out_of_resources_is_the_kernels_configuration() {
    let rules_top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "none".to_string(), |k| k.id.clone())
    };
    for text in [
        "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 524288, Hardware limit: 232448. Reducing block sizes or `num_stages` may help.",
        "triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.",
        "  raise OutOfResources(self.shared, max_shared, \"shared memory\")\ntriton.compiler.errors.OutOfResources: out of resource: shared memory, Required: 135200, Hardware limit: 101376",
    ] {
        assert_eq!(rules_top(text), "workload.library_bug", "{text}");
        assert_eq!(
            rules_top(&format!("@triton.jit\ndef my_matmul_kernel(a_ptr, b_ptr):\n    ...\n{text}")),
            "workload.shared_memory",
            "{text}"
        );
    }
    assert_eq!(
        rules_top("works fine with unsloth 2024.8, fails since 2024.9:\ntriton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 101376"),
        "workload.library_bug"
    );
}

/// Issue #14, round 8b (building and loading CUDA code): the first cause `explain`'s rules
/// alone rank for a text ("none" when nothing is ranked).
fn round_8b_top(text: &str) -> String {
    let ex = explain_by_rules(text, "");
    top_cause(&ex).map_or_else(|| "none".to_string(), |k| k.id.clone())
}

/// Round 8b: CMake finding no CUDA compiler is a missing toolkit, unless the text shows an
/// nvcc (then it is off the path); an empty architecture list is the project's CMakeLists.
#[test]
fn round_8b_cmake_cuda_language() {
    for text in [
        "CMake Error at CMakeLists.txt:12 (project):\n  No CMAKE_CUDA_COMPILER could be found.",
        "-- Looking for a CUDA compiler - NOTFOUND\nCMake Error: CUDA language required",
        "Could NOT find CUDAToolkit (missing: CUDAToolkit_NVCC_EXECUTABLE CUDA_CUDART)",
    ] {
        assert_eq!(round_8b_top(text), "toolkit.not_found", "{text}");
    }
    assert_eq!(
        round_8b_top("$ nvcc --version\nCuda compilation tools, release 12.1, V12.1.105\n-- The CUDA compiler identification is unknown\nNo CMAKE_CUDA_COMPILER could be found."),
        "toolkit.path_inconsistent"
    );
    assert_eq!(
        round_8b_top("CMake Error at C:/Program Files/CMake/share/cmake-3.27/Modules/CMakeDetermineCompilerId.cmake:751 (message):\n  No CUDA toolset found."),
        "toolkit.path_inconsistent"
    );
    for text in [
        "CMake Error in src/CMakeLists.txt:\n  CUDA_ARCHITECTURES is empty for target \"kernels\".",
        "CMake Error at Modules/CMakeDetermineCUDACompiler.cmake:277 (message):\n  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.",
    ] {
        assert_eq!(round_8b_top(text), "none", "{text}");
    }
}

/// Round 8b: NVRTC without its builtins library is a CUDA library off the loader's path (a
/// hashed file name is the package's bug); an old libstdc++ is the system's shadowing the
/// environment's, or the environment's own being older than the module's compiler.
#[test]
fn round_8b_nvrtc_builtins_and_libstdcxx() {
    for text in [
        "RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.12.1.\n  Make sure that libnvrtc-builtins.so.12.1 is installed correctly.",
        "cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (7)",
        "Error compiling program: nvrtc: error: failed to load builtins",
    ] {
        assert_eq!(round_8b_top(text), "torch.wheel_deps_mismatch", "{text}");
    }
    assert_eq!(
        round_8b_top("lib/libnvrtc-builtins-3fa1c2b9.so.12.4\nnvrtc: error: failed to open libnvrtc-builtins.so.12.4."),
        "workload.library_bug"
    );
    assert_eq!(
        round_8b_top("ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by /opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so)"),
        "torch.libs_shadowed"
    );
    assert_eq!(
        round_8b_top("ImportError: /home/u/miniconda3/envs/gs/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by /home/u/gs/simple_knn/_C.cpython-310-x86_64-linux-gnu.so)"),
        "ext.abi_mismatch"
    );
}

/// Round 8b: a CUDA intrinsic undefined at compile time is the project's unguarded call by
/// default, the architecture list when it names a GPU older than the intrinsic; a TensorRT or
/// cuDNN library that cannot be opened is a missing library, not an ABI mismatch.
#[test]
fn round_8b_intrinsics_and_missing_libraries() {
    assert_eq!(
        round_8b_top("kernels/attn.cu(88): error: identifier \"__hmul2_rn\" is undefined\n1 error detected in the compilation of \"kernels/attn.cu\"."),
        "workload.library_bug"
    );
    assert_eq!(
        round_8b_top("nvcc -gencode=arch=compute_52,code=sm_52 -c reduce.cu\nsrc/reduce.h(199): error: identifier \"__half22float2\" is undefined"),
        "env.arch_list_mismatch"
    );
    // A typo in the program's own identifier is no CUDA intrinsic: this rule stays silent.
    let ex = explain_by_rules(
        "main.cu(12): error: identifier \"my_helper\" is undefined",
        "",
    );
    assert!(ex
        .matches
        .iter()
        .all(|m| m.id != "nvcc.intrinsic_undefined"));
    for text in [
        "ImportError: libnvinfer.so.10: cannot open shared object file: No such file or directory",
        "OSError: libcudnn_graph.so.9: cannot open shared object file: No such file or directory",
    ] {
        assert_eq!(round_8b_top(text), "torch.wheel_deps_mismatch", "{text}");
    }
}

/// Round 8b: an old architecture refused in a build list that also targets current GPUs is
/// the project's list, a lone one the toolkit's; torch.compile without Triton is nothing wrong
/// with the machine unless a Triton is shown installed; XLA's "older than the PTX compiler
/// version" is minor version compatibility.
#[test]
fn round_8b_arch_lists_triton_and_xla() {
    assert_eq!(
        round_8b_top("-gencode=arch=compute_35,code=sm_35 -gencode=arch=compute_80,code=sm_80\nnvcc fatal   : Unsupported gpu architecture 'compute_35'"),
        "workload.library_bug"
    );
    assert_eq!(
        round_8b_top(
            "nvcc fatal   : Unsupported gpu architecture 'compute_35'\nGPU: Tesla K40m, CUDA 12.2"
        ),
        "toolkit.arch_unsupported"
    );
    assert_eq!(
        round_8b_top("nvcc fatal   : Unsupported gpu architecture 'compute_120'\n-gencode=arch=compute_120,code=sm_120 (CUDA 12.4)"),
        "toolkit.arch_unsupported"
    );
    assert_eq!(
        round_8b_top(
            "torch._inductor.exc.TritonMissing: Cannot find a working triton installation."
        ),
        "none"
    );
    assert_eq!(
        round_8b_top("triton==2.1.0 is installed\nRuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old."),
        "torch.wheel_deps_mismatch"
    );
    assert_eq!(
        round_8b_top("W nvptx_compiler.cc:930] The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler version 12.6.85."),
        "driver.minor_version_compat"
    );
}

/// Round 8b: the linker of an extension build finding no CUDA library is a missing toolkit,
/// or a path problem when the text shows a toolkit where the build did not look.
#[test]
fn round_8b_linker_finds_no_cuda_library() {
    assert_eq!(
        round_8b_top("FAILED: fused_adam.so\n/usr/bin/ld: cannot find -lcudart: No such file or directory\ncollect2: error: ld returned 1 exit status"),
        "toolkit.not_found"
    );
    assert_eq!(
        round_8b_top("$ nvcc --version\nCuda compilation tools, release 12.1, V12.1.105\n/usr/bin/ld: cannot find -lcurand\ncollect2: error: ld returned 1 exit status"),
        "toolkit.path_inconsistent"
    );
}

/// Issue #14, round 8a (clusters, containers, cloud): a module finding no GPU on a cloud
/// instance, nvidia-docker 1.0's CUDA check, DCGM's profiling metrics on a GPU without them, a
/// WSL 1 kernel beside the word "WSL2", a notebook whose GPU runtime is on: wordings that are not
/// the corpus's.
#[test]
fn round_8a_clusters_containers_cloud() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("ubuntu@ip-10-0-0-5 (EC2 t3.large): modprobe: ERROR: could not insert 'nvidia': No such device"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("modprobe: ERROR: could not insert 'nvidia': No such device\nlsmod shows nouveau loaded"),
        "driver.nouveau_loaded"
    );
    assert_eq!(
        top("nvidia-docker | 2018/01/02 10:00:00 Error: unsupported CUDA version: driver 9.0 < image 10.0.130"),
        "driver.too_old_for_toolkit"
    );
    assert_eq!(
        top("level=info msg=\"Not collecting DCP metrics: Error getting supported metrics: Profiling is not supported for this group of GPUs or GPU\""),
        "none"
    );
    assert_eq!(
        top("Linux DESKTOP 4.4.0-22000-Microsoft #1-Microsoft (I use wsl2)\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("On Google Colab, I set the runtime type to GPU, still: RuntimeError: No CUDA GPUs are available"),
        "env.visible_devices_invalid"
    );
    // Without the runtime said to be on, Colab's no-GPU stays the runtime's.
    assert_eq!(
        top("Google Colab: RuntimeError: No CUDA GPUs are available"),
        "workload.gpu_not_requested"
    );
}

/// Issue #14, round 8a, batch 2: Singularity/Apptainer without the driver bound in, MIG
/// (the hint's word boundaries were literal backspaces, so a bare "MIG" never counted), and a
/// batch job's `is_available()` answered on the next line.
#[test]
fn round_8a_singularity_mig_and_batch_jobs() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("apptainer exec image.sif python train.py\nCUDA driver version is insufficient for CUDA runtime version"),
        "host.container_no_gpu"
    );
    assert_eq!(
        top("inside the singularity image: NVIDIA-SMI couldn't find libnvidia-ml.so library in your system."),
        "host.container_no_gpu"
    );
    assert_eq!(
        top("A100 with MIG enabled; rank 1: RuntimeError: CUDA error: invalid device ordinal"),
        "gpu.mig_enabled"
    );
    assert_eq!(
        top("nvidia-smi shows the A100 partitioned (MIG); cuInit: CUDA_ERROR_NO_DEVICE"),
        "gpu.mig_enabled"
    );
    assert_eq!(
        top("salloc -p gpu -N1\n$ python -c 'import torch; print(torch.cuda.is_available())'\n# False"),
        "workload.gpu_not_requested"
    );
    // Without a MIG word, "no device" keeps its usual order.
    assert_ne!(
        top("cudaGetDeviceCount: no CUDA-capable device is detected"),
        "gpu.mig_enabled"
    );
}

/// Issue #14, round 8a, batch 3: the driver directory GKE mounts only into pods that request a
/// GPU, images that leave it off the path, and the toolkit's `no-cgroups = true`.
#[test]
fn round_8a_pod_driver_directory_and_no_cgroups() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("kubectl exec trainer-0 -- ls /usr/local/nvidia/lib64\nls: cannot access '/usr/local/nvidia/lib64': No such file or directory"),
        "workload.gpu_not_requested"
    );
    assert_eq!(
        top("our image does not add /usr/local/nvidia/lib64 to LD_LIBRARY_PATH, so torch finds no libcuda on GKE"),
        "host.container_no_gpu"
    );
    assert_eq!(
        top("kube-system nvidia-driver-installer-abcde 0/1 Init:CrashLoopBackOff\nthe pod doesn't have /usr/local/nvidia"),
        "driver.not_installed"
    );
    assert_eq!(
        top("/etc/nvidia-container-runtime/config.toml: no-cgroups = true\n$ podman run --device nvidia.com/gpu=all ubuntu nvidia-smi\nFailed to initialize NVML: Unknown Error"),
        "driver.device_nodes"
    );
    // ONNX Runtime's CUDA provider finding no GPU for its device id: in a pod, the request.
    assert_eq!(
        top("k8s pod: [ONNXRuntimeError] : 1 : FAIL : Failed to parse provider option \"device_id\": Invalid device ID: 0, must be between 0 (inclusive) and 0 (exclusive)"),
        "workload.gpu_not_requested"
    );
    assert_eq!(
        top("docker run myimg: Failed to parse provider option \"device_id\": Invalid device ID: 0, must be between 0 (inclusive) and 0 (exclusive)"),
        "host.container_no_gpu"
    );
}

/// Issue #14, round 8a, batch 4: an extension's prebuilt `_C.so` on a notebook GPU, a pod's
/// "insufficient driver" under a Kubernetes distribution's own containerd config, and an
/// invalid ordinal under a CUDA_VISIBLE_DEVICES that lists several GPUs.
#[test]
fn round_8a_extension_module_pod_runtime_and_physical_ids() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("after updating the notebook's prebuilt _C.so: RuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "ext.arch_unsupported"
    );
    // torch's own extension module is not an extension's build.
    assert_ne!(
        top("torch/_C.cpython-310-x86_64-linux-gnu.so\nRuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "ext.arch_unsupported"
    );
    assert_eq!(
        top("rke2 cluster, gpu-operator installed; in the pod: CUDA driver version is insufficient for CUDA runtime version"),
        "host.container_no_gpu"
    );
    assert_eq!(
        top("export CUDA_VISIBLE_DEVICES=2,3,4,5\nworker picks device_id=5\nRuntimeError: CUDA error: invalid device ordinal"),
        "workload.library_bug"
    );
}

/// Issue #14, round 8a, batch 5: Slurm refusing a job's GPU request at submission, and DCGM's
/// clients finding no host engine (a control: the GPUs are fine).
#[test]
fn round_8a_slurm_submission_and_dcgm_host_engine() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("salloc: error: Cannot find GPU specification, you may not submit a job not requesting GPUs in a GPU partition"),
        "workload.gpu_not_requested"
    );
    assert_eq!(
        top("sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification\n(our slurm.conf has no GresTypes line yet)"),
        "host.scheduler_config"
    );
    assert_eq!(
        top("$ dcgmi dmon -e 203\nError: Unable to connect to host engine. Host engine connection invalid/disconnected."),
        "none"
    );
    assert_eq!(
        top("nv-hostengine: Error: Failed to initialize NVML\ndcgmi: Error: Unable to connect to host engine. Host engine connection invalid/disconnected."),
        "driver.nvml_failed"
    );
}

/// Issue #14, round 8a, batch 6: enroot/pyxis containers without the driver injected, and
/// incus/LXD's empty NVIDIA information without the host's container toolkit.
#[test]
fn round_8a_enroot_and_incus() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("srun --container-image=nvcr.io#nvidia/pytorch:24.01-py3 nvidia-smi\nNVIDIA-SMI couldn't find libnvidia-ml.so library in your system."),
        "host.container_no_gpu"
    );
    assert_eq!(
        top("$ lxc info --resources\n  NVIDIA information:\n    Architecture:\n    Brand: NVIDIA\n    Model: NVIDIA A10\n    CUDA Version:\n    NVRM Version:\n    UUID:\n"),
        "host.container_no_gpu"
    );
    // A filled-in NVIDIA section is no failure.
    assert_eq!(
        top("  NVIDIA information:\n    Architecture: 8.6\n    CUDA Version: 12.4\n    NVRM Version: 550.54.14\n"),
        "-"
    );
}

/// Issue #14, round 9b (installing), batch 1: what pip, uv, conda/mamba, apt, dpkg and dnf
/// print when the GPU stack does not install, in wordings other than the corpus cases'.
#[test]
fn round_9b_installing_batch_1() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    // No wheel: PyTorch's index not named, or a wheel for another Python.
    assert_eq!(
        top("ERROR: Could not find a version that satisfies the requirement torch==2.3.1+cu118 (from versions: 2.3.1, 2.4.0)\nERROR: No matching distribution found for torch==2.3.1+cu118"),
        "torch.not_found"
    );
    assert_eq!(
        top("ERROR: torchvision-0.18.0+cu121-cp312-cp312-linux_x86_64.whl is not a supported wheel on this platform."),
        "torch.not_found"
    );
    // A Mac has no CUDA builds at all.
    assert_eq!(
        top("hint: You're on macOS (`macosx_14_0_arm64`), but `torch` (v2.5.1+cu124) only has wheels for the following platforms: `manylinux_2_28_x86_64`, `win_amd64`"),
        "host.no_nvidia_gpu"
    );
    // An exact nvidia-* pin of the project's is the project's; one torch itself pins is the index's.
    assert_eq!(
        top("ERROR: Could not find a version that satisfies the requirement nvidia-cublas-cu12==12.1.3.1 (from versions: 12.4.5.8, 12.6.4.1)"),
        "none"
    );
    assert_eq!(
        top("ERROR: Could not find a version that satisfies the requirement nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == \"x86_64\" (from torch) (from versions: 9.0.0.312, 9.1.1.17)"),
        "workload.library_bug"
    );
    // conda: the driver's __cuda too old; pins of two CUDA versions in one request.
    assert_eq!(
        top("Encountered problems while solving:\n  - package cuda-version-12.6-3 has constraint __cuda >=12 conflicting with __cuda-11.4-0"),
        "driver.too_old_for_toolkit"
    );
    assert_eq!(
        top("UnsatisfiableError: The following specifications were found to be incompatible with each other:\n\nPackage pytorch-cuda conflicts for:\npytorch-cuda=11.8\ntorchaudio=2.0.2 -> pytorch-cuda[version='11.7.*']"),
        "none"
    );
    // pip's dependency check after an install.
    assert_eq!(
        top("torch 2.3.0 requires nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\" and platform_machine == \"x86_64\", but you have nvidia-cudnn-cu12 9.1.0.70 which is incompatible."),
        "torch.wheel_deps_mismatch"
    );
    assert_eq!(
        top("xformers 0.0.27 requires torch==2.3.1, but you have torch 2.4.0 which is incompatible."),
        "ext.abi_mismatch"
    );
    assert_eq!(
        top("xformers 0.0.28.post3 requires torch==2.5.1, but you have torch 2.5.1+cpu which is incompatible."),
        "torch.cpu_only"
    );
    // apt/dnf: the driver's packages from two sources or releases; an upgrade stopped half-way.
    assert_eq!(
        top(" nvidia-driver-550 : Depends: nvidia-kernel-common-550 (= 550.120-0ubuntu0.22.04.1) but 550.127.05-0ubuntu1 is to be installed\nE: Unable to correct problems, you have held broken packages."),
        "driver.not_installed"
    );
    assert_eq!(
        top("After last night's unattended upgrade nvidia-smi fails.\n nvidia-dkms-535 : Depends: nvidia-kernel-common-535 (>= 535.183.01) but 535.161.07-0ubuntu1 is to be installed\nE: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution)."),
        "driver.module_not_loaded"
    );
    assert_eq!(
        top("Problem: package kmod-nvidia-latest-dkms-3:550.54.15-1.el9.x86_64 requires nvidia-kmod-common = 3:550.54.15, but none of the providers can be installed"),
        "driver.not_installed"
    );
    assert_eq!(
        top("dpkg: error processing package nvidia-dkms-535 (--configure):\n installed nvidia-dkms-535 package post-installation script subprocess returned error exit status 10"),
        "driver.module_not_loaded"
    );
}

/// Issue #14, round 9b (installing), batch 2: uv's wrapped hints, a toolkit paired with an
/// older driver, torch's libraries missing under torchaudio/torchvision, pip's CPU wheel on
/// Windows, dnf holding a kernel back for NVIDIA's precompiled module.
#[test]
fn round_9b_installing_batch_2() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("  ╰─▶ Because torch==2.0.1+cu118 has no wheels with a matching\n      platform tag (e.g., `manylinux_2_17_aarch64`) and you require\n      torch==2.0.1+cu118, we can conclude that your requirements are unsatisfiable."),
        "torch.not_found"
    );
    // A Mac asking for a plain torch that has no wheel is no GPU matter; asking for +cuXXX is.
    assert_eq!(
        top("macOS 14, Python 3.13\nERROR: Could not find a version that satisfies the requirement torch==2.2.2 (from versions: 2.5.0, 2.5.1)"),
        "torch.not_found"
    );
    assert_eq!(
        top("MacBook Pro M3\nERROR: No matching distribution found for torch==2.4.0+cu121"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("The CUDA toolkit installed (12.6) requires driver version 560.28.03 but the image ships 550.54.15."),
        "driver.too_old_for_toolkit"
    );
    assert_eq!(
        top("import torchvision\nOSError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory"),
        "ext.abi_mismatch"
    );
    assert_eq!(
        top("OSError: /venv/lib/python3.10/site-packages/torchaudio/lib/libtorchaudio.so: undefined symbol: _ZN3c104cuda20CUDACachingAllocator9allocatorE"),
        "ext.abi_mismatch"
    );
    assert_eq!(
        top("Collecting torch\n  Downloading torch-2.3.1-cp311-cp311-win_amd64.whl (159.8 MB)\nSuccessfully installed torch-2.3.1\n>>> torch.cuda.is_available()\nFalse"),
        "torch.cpu_only"
    );
    assert_eq!(
        top("Last metadata expiration check: 0:01:12 ago.\nNOTE: Skipping kernel installation since no kernel module package kmod-nvidia-550.90.07-5.14.0-427.13.1 for kernel version 5.14.0-427.13.1.el9_4 and NVIDIA driver 550.90.07 could be found"),
        "none"
    );
    // A CUDA library's own symbol missing, with the system's copy shown, is that copy loaded.
    assert_eq!(
        top("./build/all_reduce_perf: symbol lookup error: undefined symbol: \"ncclCommWindowRegister\"\n$ ls -l /usr/lib/x86_64-linux-gnu/libnccl.so.2\n/usr/lib/x86_64-linux-gnu/libnccl.so.2 -> libnccl.so.2.21.5"),
        "torch.libs_shadowed"
    );
}

/// Issue #14, round 9b (installing), batch 3: pip's resolver in the future tense, a CUDA
/// extension's build stopping with another CUDA's nvcc, a configure step finding another nvcc.
#[test]
fn round_9b_installing_batch_3() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("flash-attn 2.5.8 requires torch>=2.3, but you'll have torch 2.1.2 which is incompatible."),
        "ext.abi_mismatch"
    );
    assert_eq!(
        top("$ nvcc --version\nCuda compilation tools, release 12.0, V12.0.140\n$ pip install -e . (torch 2.2.0+cu118)\nninja: build stopped: subcommand failed.\nRuntimeError: Error compiling objects for extension"),
        "toolkit.torch_mismatch"
    );
    assert_eq!(
        top("/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 12 are not supported!\nninja: build stopped: subcommand failed."),
        "toolkit.host_compiler_unsupported"
    );
    assert_eq!(
        top("      error: command '/usr/bin/nvcc' failed with exit code 1\n      ERROR: Failed building wheel for causal-conv1d"),
        "toolkit.torch_mismatch"
    );
    assert_eq!(
        top("apt-get install -y nvidia-cuda-toolkit\n...\nCuda Configuration Error: CUDA version detected from nvcc (11.5.119) does not match TF_CUDA_VERSION (12.2)"),
        "toolkit.multiple"
    );
}

/// Issue #14, round 9b (installing), batch 4: Triton on a platform without its wheels and
/// renamed placeholder packages are no fault of the machine.
#[test]
fn round_9b_installing_batch_4() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("ERROR: Could not find a version that satisfies the requirement triton>=2.1.0 (from versions: none)\nERROR: No matching distribution found for triton>=2.1.0"),
        "none"
    );
    assert_eq!(
        top("PS C:\\Users\\me\\app> pip install -r requirements.txt\nERROR: No matching distribution found for triton==3.1.0"),
        "none"
    );
    // torch itself missing on a Linux box is still no installed PyTorch.
    assert_eq!(
        top("ERROR: Could not find a version that satisfies the requirement torch==2.0.1+cu117 (from versions: 2.4.0, 2.5.0)"),
        "torch.not_found"
    );
    assert_eq!(
        top("      =========================================================\n      The \"tensorflow-gpu\" package has been removed!\n\n      Please install \"tensorflow\" instead."),
        "none"
    );
    assert_eq!(
        top("You tried to install \"pytorch\". The package named for PyTorch is \"torch\""),
        "none"
    );
}

/// Issue #14, round 9b (installing), batch 5: a tool's package pinned to another driver
/// branch, and a conda environment's nvcc passed over for CUDA_HOME's toolkit.
#[test]
fn round_9b_installing_batch_5() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("The following packages have unmet dependencies:\n python3-pycuda : Depends: libnvidia-compute-390 but it is not going to be installed\n| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |"),
        "none"
    );
    // The driver's own packages keep their rule.
    assert_eq!(
        top(" nvidia-driver-535 : Depends: libnvidia-compute-535 (= 535.104.05-0ubuntu1) but it is not going to be installed"),
        "driver.not_installed"
    );
    assert_eq!(
        top("conda install -c nvidia cuda-nvcc=12.1\nRuntimeError:\nThe detected CUDA version (11.5) mismatches the version that was used to compile\nPyTorch (12.1). Please make sure to use the same CUDA versions."),
        "toolkit.path_inconsistent"
    );
    assert_eq!(
        top("RuntimeError:\nThe detected CUDA version (11.5) mismatches the version that was used to compile\nPyTorch (12.1). Please make sure to use the same CUDA versions."),
        "toolkit.torch_mismatch"
    );
}

// ---- round 9a (runtime errors while training or serving)

/// Issue #14, round 9a, batch 1: cuDNN status errors that are the library's or the program's
/// (an algorithm choice, the RNN path, a GPU every build runs), and an illegal access in the
/// reporter's own words that starts at a size threshold.
#[test]
fn round_9a_cudnn_status_and_size_threshold() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    // A named cuDNN algorithm: the library's bug, not the build's arch list.
    assert_eq!(
        top("CUDNN_STATUS_EXECUTION_FAILED when using dnn.conv.algo_bwd_filter=deterministic"),
        "workload.library_bug"
    );
    // The RNN path on a GTX 1080 (which every CUDA 9-12 build runs): not the machine.
    let rnn = top("run a model with RNN on my GTX 1080:\n  File \"/usr/lib/python2.7/dist-packages/torch/nn/_functions/rnn.py\", line 285, in forward\nRuntimeError: CUDNN_STATUS_EXECUTION_FAILED");
    assert!(rnn.starts_with("workload."), "{rnn}");
    // Without those signs EXECUTION_FAILED still points at the build first (an old build on a
    // new GPU).
    assert_eq!(
        top("RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\ncuda 11.7\npytorch=1.4.0"),
        "torch.arch_unsupported"
    );
    // "illegal memory access" in prose, failing from one batch size up: the library's kernel.
    assert_eq!(
        top("The same conv3D does work on batch size = 24 (outputs filled tensor), but not on batch size = 25 (illegal memory access, not filled tensor)."),
        "workload.library_bug"
    );
    // The same words without a threshold: the program's access first.
    assert_eq!(
        top("my custom kernel does an illegal memory access somewhere in the loop"),
        "workload.illegal_address"
    );
    // With Xid lines beside it the GPU is in the list.
    let ex = explain_by_rules(
        "training died with an illegal memory access\nNVRM: Xid (PCI:0000:3b:00): 13, Graphics SM Warp Exception",
        "",
    );
    assert!(ex
        .matches
        .iter()
        .any(|m| m.causes.iter().any(|k| k.id == "gpu.xid")));
}

/// Issue #14, round 9a, batch 2: a Triton of another release than torch's pin, NaN losses,
/// distributed hangs in prose, a fault bound to a release range, OOM ruled out by the reporter,
/// and a GPU left unusable after a killed kernel.
#[test]
fn round_9a_triton_nan_hang_and_killed_kernels() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nImportError: cannot import name 'triton_key' from 'triton.compiler.compiler'"),
        "torch.wheel_deps_mismatch"
    );
    // The same import from a library's own kernels: that library, first.
    assert_eq!(
        top("  File \"/opt/venv/lib/python3.11/site-packages/fla/ops/utils.py\", line 9\nImportError: cannot import name 'libdevice' from 'triton.language.math'"),
        "workload.library_bug"
    );
    // NaN losses are the program's numerics, never the machine first.
    let nan = top("The loss nans immediately when precision is set to 16");
    assert!(nan == "workload.library_bug" || nan == "none", "{nan}");
    assert_eq!(
        top("epoch 3: loss is nan after I raised the learning rate"),
        "none"
    );
    // A hang in prose: the job's collectives first; with P2P signs the transport.
    assert_eq!(
        top("NCCL hang in PyTorch Distributed Data Parallel for Mixed Precision Training"),
        "workload.nccl"
    );
    assert_eq!(
        top("DDP training hangs on two RTX 4090 with P2P enabled"),
        "probe.p2p"
    );
    // A fault bound to a toolkit release range.
    assert_eq!(
        top("with CUDA Toolkit 13.1 through 13.4 a later kernel fails: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"),
        "workload.library_bug"
    );
    // "I don't think ... should lead to OOM" beside an illegal access: not memory.
    assert_eq!(
        top("CUDA error: an illegal memory access was encountered\nI don't think bs=1, seq_len=64 should lead to OOM on an RTX3060"),
        "workload.library_bug"
    );
    // Busy or unavailable after a kernel was killed at random iterations.
    assert_eq!(
        top("error=4 : unspecified launch failure, randomly after 8000 iterations; rerunning: all CUDA-capable devices are busy or unavailable"),
        "gpu.display_watchdog"
    );
}

/// Issue #14, round 9a, batch 3: NCCL system errors on one machine (shared memory) against the
/// network's own words, a launch failure fixed by replacing the board, and 'device not ready'
/// raised as an error after a TDR reset.
#[test]
fn round_9a_nccl_system_error_board_replaced_and_not_ready() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8\n- NVIDIA GTX 1080 Ti PCIE-11GB\n- NVIDIA GTX 1080 Ti PCIE-11GB"),
        "host.shm_small"
    );
    assert_eq!(
        top("NCCL error in: ProcessGroupNCCL.cpp:1333, unhandled system error\nsocketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host"),
        "workload.nccl"
    );
    assert_eq!(
        top("Unspecified Launch Failure CUDA 11.1\nI had the system board (which also contains the RTX 2080 GPU) replaced and that has fixed the issue"),
        "gpu.lost"
    );
    assert_eq!(
        top("RuntimeError: CUDA driver error: device not ready\nRuntimeError: !handles_.at(i) INTERNAL ASSERT FAILED at \"CUDACachingAllocator.cpp\":427"),
        "gpu.display_watchdog"
    );
    // With an Xid beside it, the GPU's fault leads.
    assert_eq!(
        top("CUDA error: device not ready\nNVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus."),
        "gpu.lost"
    );
}

/// Issue #14, round 9a, batch 4: "invalid device function" (no kernel for this GPU, torch's
/// build or an extension's) and torch.compile's generated kernel failing to compile.
#[test]
fn round_9a_invalid_device_function_and_inductor_codegen() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("RuntimeError: cuda runtime error (8) : invalid device function at c:\\anaconda2\\conda-bld\\pytorch_1519496000060\\work\\torch\\lib\\thc\\generic/THCTensorMathPointwise.cu:301\nNvidia GTX 860 M"),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("  File \"/opt/venv/lib/python3.10/site-packages/mmcv/ops/roi_align.py\", line 82\nRuntimeError: CUDA error: invalid device function"),
        "ext.arch_unsupported"
    );
    // AMD's HIP wording stays with the non-NVIDIA stack.
    assert_eq!(
        top("RuntimeError: HIP error: invalid device function\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("backend='inductor' raised:\nCompilationError: at 10:11:\n    tmp3 = tmp0 + tmp2\nTypeError('unexpected type fp8e5 and fp8e5')"),
        "workload.library_bug"
    );
}

/// Issue #14, round 9a: Triton's compute-capability floor is the compiled path's, not the
/// torch build's.
#[test]
fn round_9a_triton_floor() {
    let ex = explain_by_rules(
        "RuntimeError: Found NVIDIA GeForce GTX 1080 Ti which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1",
        "",
    );
    assert_eq!(
        top_cause(&ex).map(|k| k.id.as_str()),
        Some("ext.arch_unsupported")
    );
}

/// Issue #14, round 9a, batch 5: a misaligned address, a fault bisected to one commit, and
/// ggml's CUDA backend are a library's kernel before the program's indexing.
#[test]
fn round_9a_misaligned_and_bisected() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    assert_eq!(
        top("CUDA_ERROR_MISALIGNED_ADDRESS failed with error misaligned address\nDevice: H100"),
        "workload.library_bug"
    );
    assert_eq!(
        top("RuntimeError: CUDA error: an illegal memory access was encountered\n4760e7cc0b68570d58f55e8dda469805d1759d0d is the first bad commit"),
        "workload.library_bug"
    );
    // The bare runtime message still points at the program's access first.
    assert_eq!(
        top("RuntimeError: CUDA error: an illegal memory access was encountered"),
        "workload.illegal_address"
    );
}

/// Issue #14, the blind sample (research-2026-11q): common texts that matched no rule, in other
/// wordings than the sample's.
#[test]
fn blind_sample_module_nvml_permissions_peer_access_and_debugger_warnings() {
    let top = |text: &str| {
        let ex = explain_by_rules(text, "");
        top_cause(&ex).map_or_else(|| "-".to_string(), |k| k.id.clone())
    };
    // The kernel module said not to exist, in a user's words.
    assert_eq!(
        top("after the kernel update no kernel module was built for 550, nvidia-smi fails"),
        "driver.module_not_loaded"
    );
    assert_eq!(
        top("$ sudo modprobe nvidia\nmodprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-49-generic"),
        "driver.module_not_loaded"
    );
    // NVML's permission error from a monitoring agent's Python binding.
    assert_eq!(
        top("collector ERROR: nvml initialization failed: Insufficient Permissions"),
        "driver.device_nodes"
    );
    // Peer access between two GPUs in a program's own words.
    assert_eq!(
        top("RuntimeError: peer access is not supported between two devices"),
        "workload.library_bug"
    );
    // A launch configuration error paraphrased by the reporter is still the grid.
    assert_eq!(
        top("interpolate raises an Invalid Configuration Error on a large batch"),
        "workload.grid_limit"
    );
    // cuda-gdb's API warnings alone are no fault; with the program failing they are its bug.
    assert_eq!(
        top("warning: Cuda API error detected: cudaStreamQuery returned (0x258)\n[Inferior 1 (process 4242) exited normally]"),
        "none"
    );
    assert_eq!(
        top("warning: Cuda API error detected: cudaMemcpy returned (0x1)\nterminate called after throwing an instance of 'std::runtime_error'\nAborted (core dumped)"),
        "workload.library_bug"
    );
    // A server silent after days of running: a lead to the GPU's log, the program first.
    assert_eq!(
        top("the API server stopped responding after 3 days, no error in the log"),
        "workload.library_bug"
    );
    assert_eq!(
        top("after several hours training hangs; nvidia-smi shows ERR! and Volatile Uncorr. ECC 2"),
        "gpu.ecc_errors"
    );
    // A Rust program's CUDA binding names the missing binary its own way; the program's own
    // kernels, not a torch wheel.
    assert_eq!(
        top("thread 'main' panicked at src/main.rs:12:40: called `Result::unwrap()` on an `Err` value: NoBinaryForGpu"),
        "ext.arch_unsupported"
    );
    // A `docker run` without --gpus beside nvidia-smi failing: the container, not the module.
    assert_eq!(
        top("$ docker run -it -v /usr/bin:/usr/local/nvidia/bin myimage bash\n# nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."),
        "host.container_no_gpu"
    );
}

// round 10b
#[test]
fn round_10b_other_cuda_programs() {
    // NVENC's API version check: the driver is older than the encoder's SDK.
    assert_eq!(
        top("[h264_nvenc @ 0x7ff3e9b83c00] Driver does not support the required nvenc API version. Required: 9.1 Found: 9.0\n[h264_nvenc @ 0x7ff3e9b83c00] The minimum required Nvidia driver for nvenc is 418.30 or newer"),
        "driver.too_old_for_toolkit"
    );
    // The encode library missing: in a container first (no `video` capability) ...
    assert_eq!(
        top("[hevc_nvenc @ 0x55ca461fa380] Cannot load libnvidia-encode.so.1\n[hevc_nvenc @ 0x55ca461fa380] The minimum required Nvidia driver for nvenc is (unknown) or newer"),
        "host.container_no_gpu"
    );
    // ... a GPU without an encoder (the product's, no fault of the machine or the driver) ...
    assert_eq!(
        top("[h264_nvenc @ 0x55d754c3ce80] OpenEncodeSessionEx failed: unsupported device (2): (no details)\n[h264_nvenc @ 0x55d754c3ce80] No capable devices found\nubuntu machine with an A100 attached"),
        "none"
    );
    // ... GeForce's session limit ...
    assert_eq!(
        top("[h264_nvenc @ 0x1] OpenEncodeSessionEx failed: incompatible client key (21): (no details)\n[h264_nvenc @ 0x1] No capable devices found"),
        "gpu.busy"
    );
    // ... and a mode the encoder lacks is no fault of the machine.
    assert_eq!(
        top("[h264_nvenc @ 0x55b4dc6eed40] 10 bit encode not supported\n[h264_nvenc @ 0x55b4dc6eed40] Provided device doesn't support required NVENC features\nError: Could not open codec [h264_nvenc]: Function not implemented"),
        "none"
    );
    // OptiX: the ABI the program asks for is newer than the driver's; 7804, the library missing.
    assert_eq!(
        top("Optix call (optixInit()) failed with code 7801 (line 150)\nterminate called without an active exception"),
        "driver.too_old_for_toolkit"
    );
    assert_eq!(
        top("OPTIX_ERROR_LIBRARY_NOT_FOUND in optixInit() (device_optix.cpp:71)"),
        "driver.not_installed"
    );
    // TensorFlow's PTX JIT warning alone is no fault; with the JIT failing after it, the build.
    assert_eq!(
        top("W gpu_device.cc:2431] TensorFlow was not built with CUDA kernel binaries compatible with compute capability 9.0. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer."),
        "none"
    );
    assert_eq!(
        top("W gpu_device.cc:2431] TensorFlow was not built with CUDA kernel binaries compatible with compute capability 12.0. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer.\nCUDA_ERROR_INVALID_HANDLE"),
        "torch.arch_unsupported"
    );
    // OpenCV without CUDA; PaddlePaddle's dlopen of the system cuDNN.
    assert_eq!(
        top("[ WARN:0] global dnn.cpp (1429) setUpNet DNN module was not built with CUDA backend; switching to CPU"),
        "torch.cpu_only"
    );
    assert_eq!(
        top("Error: Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion at (/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)"),
        "toolkit.not_found"
    );
    // "Insufficient driver" from MXNet with an old driver named: MXNet's CUDA, not torch's.
    assert_eq!(
        top("mxnet.base.MXNetError: src/storage/storage.cc:42: Check failed: e == cudaSuccess CUDA: CUDA driver version is insufficient for CUDA runtime version\nDriver Version: 367.27"),
        "driver.too_old_for_toolkit"
    );
    // A CUDA library of the major the text says is installed: not on the loader path.
    assert_eq!(
        top("FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublas.so.11: cannot open shared object file: No such file or directory\n- CUDA  version: 11.2"),
        "toolkit.not_found"
    );
    assert_eq!(
        top("FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublas.so.11: cannot open shared object file: No such file or directory\n- CUDA  version: 12.4"),
        "torch.wheel_deps_mismatch"
    );
    // A library's capability floor that the GPU the text names meets: the build has no CUDA.
    assert_eq!(
        top("No compatible GPUs found for Cycles. Requires NVIDIA GPU with compute capability 3.0\nmy graphics card does have compute capability 7.5"),
        "torch.cpu_only"
    );
    assert_eq!(
        top("No compatible GPUs found for Cycles. Requires NVIDIA GPU with compute capability 3.0\nGeForce GT 610, compute capability 2.1"),
        "ext.arch_unsupported"
    );
    // No kernel image in a program built with make and run from its build tree: its kernels.
    assert_eq!(
        top("$ make -j badslam_test\n$ ./build_RelWithDebInfo/applications/badslam/badslam_test\nFATL| Cuda Error: no kernel image is available for execution on the device"),
        "ext.arch_unsupported"
    );
    // NVIDIA's encoder where the CUDA driver itself is missing: no NVIDIA GPU on Windows (no
    // nvcuda.dll), or the text says there is none.
    assert_eq!(
        top("Encoding video as H264 on Nvidia GPU...\n[h264_nvenc @ 000001f8d00602c0] Cannot load nvcuda.dll\nCould not open codecContext for codec: Operation not permitted"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("I'm running without  GPU\n[hevc_nvenc @ 0x56547a989800] Cannot load libcuda.so.1\n[ERROR] cannot open codec!"),
        "host.no_nvidia_gpu"
    );
    // Other CUDA programs named in a text no rule knows: the framework is recorded.
    let ex = explain("hashcat: cuModuleLoadDataEx(): CUDA_ERROR_SHARED_OBJECT_INIT_FAILED");
    assert!(ex.matches.iter().any(|m| m.id == GENERIC_MATCH
        && m.extracted.get("framework").map(String::as_str) == Some("cuda-program")));
    // No device in WSL: cuInit answered, so a libcuda loaded, and it is not the Windows
    // driver's (a Linux driver's installed inside WSL, or first on LD_LIBRARY_PATH).
    assert_eq!(
        top("Windows 11 WSL2 CUDA 12.2 - Call to cuInit results in CUDA_ERROR_NO_DEVICE:"),
        "torch.libs_shadowed"
    );
}

// round 10a
#[test]
fn the_current_era_blackwell_cuda13_and_aarch64() {
    // The proprietary module named with a Blackwell GPU, in prose, either order.
    assert_eq!(
        top("Our image ships the proprietary NVIDIA kernel modules, and the RTX 5090 never shows up in nvidia-smi"),
        "driver.open_module_required"
    );
    assert_eq!(
        top("GB10 on DGX Spark: per NVIDIA, Blackwell is only supported by the open kernel modules; our install failed to initialize the GPU"),
        "driver.open_module_required"
    );
    // A proprietary module with an older GPU is no Blackwell matter.
    assert_ne!(
        top("switched to the proprietary kernel modules on my GTX 1080 and nvidia-smi failed"),
        "driver.open_module_required"
    );
    // An installer that took a CPU build of torch, in prose.
    assert_eq!(
        top(
            "on the GH200 node pip installed the torch 2.8.0 CPU wheel, so nothing runs on the GPU"
        ),
        "torch.cpu_only"
    );
    // Error 804 under a program's bundled CUDA backend on a Maxwell GeForce: its build, not
    // a compat package.
    assert_eq!(
        top("Device 0: NVIDIA GeForce GTX 970, compute capability 5.2\nggml_cuda_init: failed to initialize CUDA: forward compatibility was attempted on non supported HW"),
        "ext.arch_unsupported"
    );
    // 804 in a container on a GeForce stays the compat package.
    assert_eq!(
        top("docker run --gpus all nvcr.io/nvidia/pytorch:25.01-py3\nRTX 3090\nError 804: forward compatibility was attempted on non supported HW"),
        "driver.forward_compat_unsupported"
    );
}

// round 10a
#[test]
fn the_current_era_cuda13_drops_and_driver_ceilings() {
    // CUDA 13 with a pre-Turing GPU, said in prose: the toolkit, or a cu130 framework build.
    assert_eq!(
        top("Our CMake build with CUDA Toolkit 13.0 no longer produces code for the Tesla P100 in the lab"),
        "toolkit.arch_unsupported"
    );
    assert_eq!(
        top("pip picked the cu130 torch wheel on our V100 nodes and every op fails"),
        "torch.arch_unsupported"
    );
    // A Turing or newer GPU with CUDA 13 is no such case.
    assert_ne!(
        top("Our CMake build with CUDA Toolkit 13.0 fails on the RTX 4090 with a linker error"),
        "toolkit.arch_unsupported"
    );
    // The driver's CUDA Version above nvcc's release: nothing wrong, unless a program refuses it.
    assert_eq!(
        top("| NVIDIA-SMI 580.95.05   Driver Version: 580.95.05   CUDA Version: 13.0 |\nCuda compilation tools, release 12.8, V12.8.93\nis this a problem?"),
        "none"
    );
    assert_eq!(
        top("| NVIDIA-SMI 580.95.05   Driver Version: 580.95.05   CUDA Version: 13.0 |\nCuda compilation tools, release 12.8, V12.8.93\nWARNING: CUDA 13.0 not supported, falling back to CPU"),
        "workload.library_bug"
    );
    // NCCL's unhandled cuda error beside PyTorch's warning that the GPU is not in the build,
    // even when the paste cut the warning short.
    assert_eq!(
        top("RuntimeError: NCCL Error 1: unhandled cuda error\nUserWarning: NVIDIA GeForce RTX 5080 with CUDA capability sm_120 is not compatible with the current PyTorch"),
        "torch.arch_unsupported"
    );
}

// round 10a
#[test]
fn the_current_era_builds_that_lack_the_gpus_kernels() {
    // ggml's own arch check names what the build was compiled for.
    assert_eq!(
        top("ERROR: CUDA kernel mul_mat_q has no device code compatible with CUDA arch 610. ggml-cuda.cu was compiled for: 750,800\nCUDA error: unspecified launch failure"),
        "ext.arch_unsupported"
    );
    // An extension's "SMxx kernel is not available" is its own build, not torch.
    assert_eq!(
        top("AssertionError: SM90 kernel is not available. Make sure you GPUs with compute capability 9.0."),
        "ext.arch_unsupported"
    );
    // Hopper-only instructions refused for a Blackwell target: the arch list.
    assert_eq!(
        top("ptxas error   : Instruction 'setmaxnreg' not supported on .target 'sm_120'"),
        "env.arch_list_mismatch"
    );
    // A build's "CUDA X or higher is required for compute capability Y" beside "no kernel
    // image": the stack predates the GPU.
    assert_eq!(
        top("RuntimeError: CUDA 12.8 or higher is required for compute capability 12.0.\nRuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("RuntimeError: CUDA 12.8 or higher is required for compute capability 12.0.\nnvcc --version: release 12.6"),
        "toolkit.arch_unsupported"
    );
    // "no kernel image" on a Blackwell card: an old torch named points at torch even beside an
    // extension; a torch 2.7+ cu128 build named points at the extension.
    assert_eq!(
        top("RTX 5070 Ti, pip installed xformers which pulled torch==2.5.1\nRuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "torch.arch_unsupported"
    );
    assert_eq!(
        top("RTX 5090 with torch 2.8.0+cu128\nError no kernel image is available for execution on the device at line 73 in file /src/csrc/ops.cu"),
        "ext.arch_unsupported"
    );
}

// round 10a
#[test]
fn the_current_era_thor_gb10_and_build_arch_lists() {
    // A newer minor of an architecture the build carries: PyTorch's warning is a false positive.
    assert_eq!(
        top("UserWarning:\n    Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (8.0) - (12.0)"),
        "none"
    );
    // ... unless CUDA ops then fail.
    assert_eq!(
        top("Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (8.0) - (12.0)\nRuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "torch.arch_unsupported"
    );
    // A GPU of a newer major than the build stays the build.
    assert_eq!(
        top("Found GPU0 NVIDIA GeForce RTX 5090 which is of cuda capability 12.0.\n    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (5.0) - (9.0)"),
        "torch.arch_unsupported"
    );
    // Jetson Thor under a CUDA 12 wheel: the torch build, even with sm_120 in its arch list.
    assert_eq!(
        top("Jetson AGX Thor, torch 2.10.0+cu128, arch list sm_80 sm_90 sm_100 sm_120\nRuntimeError: CUDA error: no kernel image is available for execution on the device"),
        "torch.arch_unsupported"
    );
    // A program's CMake architecture list in its own syntax: the program's build.
    assert_eq!(
        top("rebuilt onnxruntime with CMAKE_CUDA_ARCHITECTURES=87-real;87-virtual and the crash on the new board went away"),
        "ext.arch_unsupported"
    );
}

// round 10a
#[test]
fn the_current_era_swapped_variants_and_local_toolkits() {
    // Another package's install swapped torch's CUDA variant.
    assert_eq!(
        top("after pip install of the inference engine it downgraded my torch to 2.9.0+cu128, but its nvidia libs are CUDA 13 now and nothing imports"),
        "torch.wheel_deps_mismatch"
    );
    // torch's own library missing a CUDA library's versioned symbol with a local toolkit named:
    // the toolkit's older library is loaded first.
    assert_eq!(
        top("CUDA 12.4 installed locally\nImportError: /venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: cublasLtGroupedMatrixLayoutCreate, version libcublasLt.so.12"),
        "torch.libs_shadowed"
    );
    // Without the toolkit named it stays the wheels.
    assert_eq!(
        top("ImportError: /venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: cublasLtGroupedMatrixLayoutCreate, version libcublasLt.so.12"),
        "torch.wheel_deps_mismatch"
    );
}

// blind sample 2 (research-2026-11t)
#[test]
fn blind_sample_two_gpu_not_used_nccl_networks_and_old_toolkits() {
    // The program said not to use the GPU: an old GPU beside it is the program's build.
    assert_eq!(
        top("my app will not use the gpu, I have a GTX 780 and a 3060 in the box"),
        "ext.arch_unsupported"
    );
    // ... a container beside it, the container.
    assert_eq!(
        top("inside the docker container it runs on the CPU instead, the host has an RTX 4090"),
        "host.container_no_gpu"
    );
    // ... a CPU build beside it, the build.
    assert_eq!(
        top("It is not using my GPU at all. pip list shows torch 2.3.0+cpu"),
        "torch.cpu_only"
    );
    // A program whose error names its own fault is not this rule's.
    assert_ne!(
        top("RuntimeError: CUDA error: an illegal memory access was encountered (it is not using the gpu I asked for)"),
        "ext.arch_unsupported"
    );
    // NCCL between nodes in words: the network's configuration.
    assert_eq!(
        top("NCCL picks the wrong interface on the second node although NCCL_SOCKET_IFNAME=eth1 is set"),
        "workload.nccl"
    );
    // "No compatible GPU found" inside a container: the container got no GPU.
    assert_eq!(
        top("podman logs: no compatible GPUs found, the card is an RTX 3080"),
        "host.container_no_gpu"
    );
    // ... and an old GPU outside one stays the program's build.
    assert_eq!(
        top("No compatible GPUs found. My card is a Tesla K40m"),
        "ext.arch_unsupported"
    );
    // Memory that interrupted runs leave held, found with lsof.
    assert_eq!(
        top("cancelled runs never release the GPU memory; lsof /dev/nvidia0 shows the old python processes"),
        "gpu.busy"
    );
    // A GPU newer than the toolkit the program was built with, behind a cuDNN status.
    assert_eq!(
        top("RTX 3080: CUDNN_STATUS_EXECUTION_FAILED\nbuilt with CUDA 10.0 and cuDNN 7.6"),
        "toolkit.arch_unsupported"
    );
    // ... while a GPU the toolkit knows keeps the usual reading.
    assert_ne!(
        top("GTX 1080: CUDNN_STATUS_EXECUTION_FAILED\nbuilt with CUDA 10.0 and cuDNN 7.6"),
        "toolkit.arch_unsupported"
    );
    // A capability below the program's lowest supported one.
    assert_eq!(
        top(
            "sm 35 is the lowest supported by this code; our Quadro K600 has GPU capability of 3.0"
        ),
        "ext.arch_unsupported"
    );
    // TensorFlow's empty GPU list on its own line is the build; a CUDA build that an older
    // release runs fine on the same machine is that release's bug.
    assert_eq!(
        top("tf.config.list_physical_devices('GPU')\nreturns an empty list"),
        "torch.cpu_only"
    );
    assert_eq!(
        top("pip install tensorflow[and-cuda]\ntf.config.list_physical_devices('GPU')\n[]\nTF 2.15 works fine on this box"),
        "workload.library_bug"
    );
}

// lead, session of 2026-11-24: Windows' own nvidia-smi
#[test]
fn nvml_failing_in_windows_own_shell_is_no_container_fault() {
    let text = "C:\\Users\\me>nvidia-smi.exe\nFailed to initialize NVML: Unknown Error";
    let e = crate::explain::explain_by_rules(text, "");
    let first = e.matches[0].causes[0].id.as_str();
    assert_eq!(first, "driver.nvml_failed", "{e:?}");
    // the same line inside a Linux container keeps the container's causes first
    let linux = "root@0f2c:/# nvidia-smi\nFailed to initialize NVML: Unknown Error";
    let e = crate::explain::explain_by_rules(linux, "");
    assert_eq!(e.matches[0].causes[0].id, "driver.device_nodes");
}

// lead, blind sample 3 (research-2026-11u): general changes
#[test]
fn blind_sample_3_general_changes() {
    // the host's memory, not the GPU's
    assert_eq!(
        top("[enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 13005619200 bytes."),
        "workload.out_of_memory"
    );
    assert_eq!(
        top("OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading \"C:\\venv\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its dependencies."),
        "workload.out_of_memory"
    );
    // a CUDA program that is not PyTorch cannot have a PyTorch build's cause
    assert_eq!(
        top("Error in ksFilter (line 15)\n    dataRAW = gpuArray(buff);\nCaused by:\n    The CUDA driver was found, but it is too old. The CUDA driver on your system supports CUDA version 5.5. The required CUDA version is 7.5 or greater."),
        "driver.too_old_for_toolkit"
    );
    assert_eq!(
        top("nvrtcCompileProgram(): NVRTC_ERROR_INVALID_OPTION\nnvrtc: error: invalid value for --gpu-architecture (-arch)\n* Device #1: Kernel /hashcat-6.1.1/OpenCL/shared.cl build failed."),
        "toolkit.arch_unsupported"
    );
    // ... while torch's own NVRTC keeps torch's build first
    assert_eq!(
        top("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\n  File \"/usr/lib/python3/site-packages/torch/jit/_script.py\", line 10"),
        "torch.arch_unsupported"
    );
    // the compute mode, the fabric manager, a container's missing device node or video libraries
    assert_eq!(
        top("I am informed that GPUs in the supercomputer are setup in \"process exclusive mode\"; the second instance fails: CUDA error: no device available"),
        "gpu.compute_mode_restricted"
    );
    assert_eq!(
        top("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152:\nCUDA error 401 'the operation cannot be performed in the present state'.\nThis is usually caused by a system or configuration error in the Fabric Manager or NVSwitches."),
        "driver.fabric_manager"
    );
    assert_eq!(
        top("Error response from daemon: linux runtime spec devices: error gathering device information while adding custom device \"/dev/nvidia-uvm-tools\": lstat /dev/nvidia-uvm-tools: no such file or directory"),
        "driver.device_nodes"
    );
    assert_eq!(
        top("Error response from daemon: error gathering device information while adding custom device \"/dev/nvidia-uvm\": no such file or directory\nso I cd into /dev folder and no nvidia related stuff there at all!"),
        "driver.module_not_loaded"
    );
    assert_eq!(
        top("VideoReader encountered: Assert on \"lib_handle_\" failed: Failed to load libnvcuvid.so, needed by the VideoReader operator. If you are running in a Docker container, please refer to https://github.com/NVIDIA/nvidia-docker/wiki/Usage"),
        "host.container_no_gpu"
    );
    // NVENC's API version: the driver
    assert_eq!(
        top("[h264_nvenc @ 000001e8482050c0] Cannot get the preset configuration: invalid version (15)\nencavcodecInit: avcodec_open failed"),
        "driver.too_old_for_toolkit"
    );
}

#[test]
fn vllm_kv_cache_sizing_is_the_jobs_memory() {
    assert_eq!(
        top("ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be stored in KV cache (3664). Try increasing gpu_memory_utilization or decreasing max_model_len when initializing the engine."),
        "workload.out_of_memory"
    );
    assert_eq!(
        top("ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\nProcess 4242 has 30.00 GiB memory in use."),
        "gpu.busy"
    );
}

// lead, blind paste sample 1 (dev-2026-11l): general changes on the explain side
#[test]
fn blind_paste_sample_1_general_changes() {
    // the web UIs' launch check: a cu12x torch on an older driver first, a CPU wheel named
    assert_eq!(
        top("Installing torch and torchvision\nLooking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu121\nRuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check"),
        "driver.too_old_for_torch"
    );
    assert_eq!(
        top("torch 2.1.2+cpu\nRuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check"),
        "torch.cpu_only"
    );
    assert_eq!(
        top("An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu."),
        "torch.cpu_only"
    );
    assert_eq!(
        top("UserWarning: The dataloader, val dataloader 0, does not have many workers which may be a bottleneck. Consider increasing the value of the `num_workers` argument"),
        "none"
    );
    // CUDA's initialisation missing a symbol inside a container: the runtime's mapped libraries
    assert_eq!(
        top("webui-docker-auto-1  | Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 500: named symbol not found: str"),
        "host.container_no_gpu"
    );
    // ... while a kernel looked up at run time stays the module's architecture
    assert_eq!(
        top("CUDA error cudaErrorSymbolNotFound: named symbol not found in kernel launch (sm_90 only build)"),
        "ext.arch_unsupported"
    );
    // out of memory with one library release and not another: the release's regression
    assert_eq!(
        top("With transformers == 4.53.0 I get torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. While this script on the same hardware with transformers == 4.51.3 is working perfectly."),
        "workload.library_bug"
    );
    // docker's own words for a runtime it does not know
    assert_eq!(
        top("docker: Error response from daemon: Unknown runtime specified nvidia.\nnvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown."),
        "host.container_no_gpu"
    );
}

#[test]
fn a_library_floor_the_reporter_ran_with_another_dtype_is_a_setting() {
    let err = "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P40 GPU has compute capability 6.1. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half.";
    assert_eq!(top(err), "ext.arch_unsupported");
    assert_eq!(
        top(&format!("{err}\n\nFixed it with: \n\ndtype=torch.float16")),
        "none"
    );
}

#[test]
fn the_open_kernel_modules_said_to_be_required() {
    assert_eq!(
        top("the new Nvidia cards require the use of the open kernel modules instead of the \"legacy\" proprietary ones.\nInstall 570.144 drivers; reboot hangs; nvidia-smi returns no devices were found"),
        "driver.open_module_required"
    );
}

// lead, blind sample 4 (research-2026-11w): general changes
#[test]
fn blind_sample_4_general_changes() {
    assert_eq!(
        top("c10::OutOfMemoryError on simplex basecalling, dorado v0.6.0\nI'm working with GPU A100/V100 on a compute cluster."),
        "workload.out_of_memory"
    );
    assert_eq!(
        top("Driver Version: 470.161.03   CUDA Version: 11.8\n/root/code/optix_tracer/optix_wrapper.cpp:175 Optix Error: 'Unsupported ABI version'\nSegmentation fault"),
        "driver.too_old_for_toolkit"
    );
    // a blank line between the failure and the GPU it names: still answered
    let e = crate::explain::explain_by_rules(
        "RuntimeError: can't query kernel attributes\n\nGPU details:\nDevice name: NVIDIA GeForce GTX 1070 Ti\nCUDA Version: 11.8",
        "",
    );
    assert!(!e.matches.is_empty());
}

#[test]
fn colmap_siftgpu_without_cuda() {
    assert_eq!(
        top("Shader not supported by your hardware!\nERROR: SiftGPU not fully supported\nERROR: SiftGPU not fully supported"),
        "torch.cpu_only"
    );
}

// round 11a (clusters and clouds): vGPU licences, slowdowns minutes into a run, kubelet's
// allocation race, GPU/MIG UUIDs a program cannot parse.
#[test]
fn round_11a_clusters_and_clouds() {
    // An unlicensed vGPU that crawls is capped; one whose CUDA is refused is the refusal.
    assert_eq!(
        top("after a few minutes training is very slow\nLicense Status : Unlicensed"),
        "gpu.throttled"
    );
    assert_eq!(
        top("nvidia-gridd: Failed to acquire license from 10.0.0.5\ncuInit returned no CUDA-capable device"),
        "driver.cuda_init_failed"
    );
    // Many times slower some minutes into the run, on a vGPU node.
    assert_eq!(
        top("the A10 vGPU node became 100x slower after running for 10 minutes"),
        "gpu.throttled"
    );
    // kubelet found the node's GPUs taken: the node is fine ...
    assert_eq!(
        top("Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected"),
        "none"
    );
    // ... unless the device plugin marked them unhealthy.
    assert_eq!(
        top("Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 2, Available: 1\nnvidia-device-plugin: marking device GPU-1 as unhealthy"),
        "gpu.xid"
    );
    // A program that cannot read a MIG or GPU UUID in CUDA_VISIBLE_DEVICES.
    assert_eq!(
        top("ValueError: invalid literal for int() with base 10: 'MIG-377e0049-554c-540b-93c6-d0976f8426cb'"),
        "workload.library_bug"
    );
    assert_eq!(
        top("ValueError: invalid literal for int() with base 10: 'GPU-52a3a85d-3c55-ca3a-a955-82c69ed360fc'"),
        "workload.library_bug"
    );
    // A plain int() error on something else is not this rule's.
    assert_ne!(
        top("ValueError: invalid literal for int() with base 10: 'abc'"),
        "workload.library_bug"
    );
}

#[test]
fn round_11a_schedulers_runtimes_rendezvous() {
    // A batch job that sees no GPU, with the scheduler's cgroup.conf shown: its configuration.
    assert_eq!(
        top("srun --gres=gpu:1 --container-image=cuda python x.py\nno CUDA-capable device is detected\n$ cat /etc/slurm/cgroup.conf\nCgroupAutomount=yes\nConstrainCores=yes"),
        "host.scheduler_config"
    );
    // ... without it, still the container that did not get the GPUs.
    assert_eq!(
        top("srun --gres=gpu:1 --container-image=cuda python x.py\nno CUDA-capable device is detected"),
        "host.container_no_gpu"
    );
    // The NVIDIA runtime installed but not the default.
    assert_eq!(
        top("The following requirements are not met: The default runtime is not set correctly"),
        "host.container_no_gpu"
    );
    // "Insufficient driver" with a 550 driver and a CUDA 12 program: the runtime does not
    // reach that driver.
    assert_eq!(
        top("CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version\nNvidia Driver: v550.78, the app uses CUDA 12"),
        "host.container_no_gpu"
    );
    // ... while an old driver stays too old.
    assert_ne!(
        top("CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version\nNvidia Driver: 470.82, the app uses CUDA 12"),
        "host.container_no_gpu"
    );
    // A program that overwrites the scheduler's CUDA_VISIBLE_DEVICES.
    assert_eq!(
        top("this breaks SLURM assignment of GPUs by overwriting CUDA_VISIBLE_DEVICES"),
        "workload.library_bug"
    );
    // The nodes never meet at the rendezvous: the launch configuration, not the GPUs.
    assert_eq!(
        top("torch.distributed.DistStoreError: Socket Timeout"),
        "workload.nccl"
    );
    assert_eq!(
        top("[E socket.cpp:793] [c10d] The client socket has timed out after 60s while trying to connect to (IP1, 2222)."),
        "workload.nccl"
    );
}

#[test]
fn round_11a_datacenter_driver_states() {
    // Another context holds the GPU: compute mode on a shared server, two libraries in one
    // process.
    assert_eq!(
        top("W tensorflow/stream_executor/cuda/cuda_driver.cc:572] creating context when one is currently active; other users run jobs on this server"),
        "gpu.compute_mode_restricted"
    );
    assert_eq!(
        top("creating context when one is currently active\nI import caffe and tensorflow in the same script"),
        "workload.library_bug"
    );
    // NVML "Unknown Error" for a present GPU: the GSP firmware, or an Xid.
    assert_eq!(
        top("error creating nvml.Device 0: nvml: Unknown Error\nproblem with NVIDIA GSP on g5 instances"),
        "driver.nvml_failed"
    );
    assert_eq!(
        top("error creating nvml.Device 0: nvml: Unknown Error\nNVRM: Xid (PCI:0000:00:1e): 79, GPU has fallen off the bus"),
        "gpu.lost"
    );
    // The driver's GSP firmware missing.
    assert_eq!(
        top("nvidia 0000:00:1e.0: Direct firmware load for nvidia/565.57.01/gsp_tu10x.bin failed with error -2"),
        "driver.not_installed"
    );
    // The container hook's driver query times out: persistence off.
    assert_eq!(
        top("nvidia-container-cli: initialization error: driver error: timed out"),
        "driver.persistence_off"
    );
    // Slow start-up per GPU: persistence; a slow first run with PTX: the JIT.
    assert_eq!(
        top("nvidia-smi takes 30 seconds on our 8-GPU VM"),
        "driver.persistence_off"
    );
    assert_eq!(
        top("the first run takes 10 minutes, the PTX is JIT compiled for my GPU"),
        "torch.ptx_jit_only"
    );
    // A MIG mode change pending: the reset, or a client blocking it.
    assert_eq!(
        top("sudo nvidia-smi -mig 1\nWarning: MIG mode is in pending enable state for GPU 00000000:07:00.0:Not Supported\nReboot the system to make MIG mode effective."),
        "gpu.mig_enabled"
    );
    assert_eq!(
        top("Warning: MIG mode is in pending enable state for GPU 00000001:00:00.0:In use by another client"),
        "gpu.busy"
    );
    // MIG devices gone after a reboot.
    assert_eq!(
        top("all my MIG instances are gone after reboot, nvidia-smi -L lists only the GPU"),
        "gpu.mig_enabled"
    );
    // Two nodes' launch lines pasted, nothing else: the launch configuration.
    assert_eq!(
        top("NNODES=2 RANK=0 MASTER_ADDR=10.0.0.1 MASTER_PORT=29500 llamafactory-cli train a.yaml\nNNODES=2 RANK=1 MASTER_ADDR=10.0.0.2 MASTER_PORT=29500 llamafactory-cli train a.yaml"),
        "workload.nccl"
    );
}

#[test]
fn round_11a_fabric_kernels_vgpu_images() {
    // The fabric manager finds no NVSwitch: nothing to do on PCIe GPUs ...
    assert_eq!(
        top("two A40 with an NVLink bridge\nnv-fabricmanager[4177]: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]"),
        "none"
    );
    // ... the fabric on an HGX B200 that CUDA then misses.
    assert_eq!(
        top("HGX B200: nv-fabricmanager: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]"),
        "driver.fabric_manager"
    );
    // No kernel headers for the running kernel: the module is never built.
    assert_eq!(
        top("the kernel 5.14.14 exists but the kernel-header 5.14.14 does not exist, so the driver container fails"),
        "driver.module_not_loaded"
    );
    assert_eq!(
        top("E: Unable to locate package linux-headers-5.3.0-1029-gcp"),
        "driver.module_not_loaded"
    );
    // A vGPU guest driver the host no longer supports.
    assert_eq!(
        top("NVRM: Xid (PCI:0000:00:00): 78, Guest driver is incompatible with host driver"),
        "driver.gpu_unsupported"
    );
    // An Azure NV-series VM with the data-center driver image.
    assert_eq!(
        top("Standard_NV72ads_A10_v5\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."),
        "driver.gpu_unsupported"
    );
    // ... while the same failure elsewhere stays the module.
    assert_eq!(
        top("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."),
        "driver.module_not_loaded"
    );
    // The driver said in words not to support the CUDA torch needs.
    assert_eq!(
        top("Driver Version: 495.29.05. This version of nvidia drivers does not support CUDA 11.8, which the latest pytorch needs"),
        "driver.too_old_for_torch"
    );
}

#[test]
fn round_11a_scheduling_and_rendezvous_controls() {
    // A GPU node excluded for a taint the pod does not tolerate: the pod spec, not the node.
    assert_eq!(
        top("0/10 nodes are available: 1 node(s) had taint {workload: aiml}, that the\n  pod didn't tolerate, 9 Insufficient nvidia.com/gpu."),
        "workload.library_bug"
    );
    // ... while a plain "Insufficient" stays the device plugin / runtime.
    assert_eq!(
        top("0/3 nodes are available: 3 Insufficient nvidia.com/gpu."),
        "host.container_no_gpu"
    );
    // The c10d client cannot reach the rendezvous: the launch, not the GPUs.
    assert_eq!(
        top("[E socket.cpp:657] [c10d] The client socket has failed to connect to any network address of (node1, 59667)."),
        "workload.nccl"
    );
    // Multi-node runs that hang because each node met only itself.
    assert_eq!(
        top("RDZV_HOST became localhost, each node rendezvoused with itself and multi-node runs hung at startup"),
        "workload.nccl"
    );
}

#[test]
fn round_11a_visible_devices_in_jobs() {
    // Slurm's NoDevFiles: the job requested no GPU.
    assert_eq!(
        top("echo $CUDA_VISIBLE_DEVICES\nNoDevFiles\ntorch.cuda.is_available() is False"),
        "workload.gpu_not_requested"
    );
    // CUDA_VISIBLE_DEVICES set after CUDA initialised, by the program's launcher.
    assert_eq!(
        top("the launcher sets CUDA_VISIBLE_DEVICES over HTTP after Python started, which is too late"),
        "workload.library_bug"
    );
    // Workers that all see every GPU and run out of memory.
    assert_eq!(
        top("all workers see all GPUs (0,1,2,3) instead of their assigned subset, then CUDA out of memory during model load"),
        "workload.library_bug"
    );
}

#[test]
fn a_hard_wrapped_message_is_read_joined() {
    // jax-ml/jax#788: the log line wrapped mid-phrase ("Out " / "of memory ...")
    let text = "[1] 2019-06-13 01:17:08.886805: E external/org_tensorflow/tensorflow/compiler/xla/python/local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out \nof memory while trying to allocate 5520758552 bytes.";
    assert_eq!(top(text), "workload.out_of_memory");
    // the joined text keeps the length: offsets of later lines do not move
    let joined = super::unwrapped(text).unwrap();
    assert_eq!(joined.len(), text.len());
    assert!(joined.contains("Resource exhausted: Out of memory while trying"));
    // a Windows line end is part of the break
    let crlf = text.replace(" \nof", " \r\nof");
    assert!(super::unwrapped(&crlf).unwrap().contains("Out of memory"));
    // short lines, or a next line that starts a sentence, are not joined
    assert!(super::unwrapped("CUDA error\nout of memory").is_none());
    assert!(super::unwrapped(&format!("{} done.\nnext line", "x".repeat(80))).is_none());
    // a downgrade that avoids it is that release's regression
    assert_eq!(
        top(&format!(
            "{text}\n\nSo I'll have to downgrade to 0.1.18 for now :/"
        )),
        "workload.library_bug"
    );
}

#[test]
fn the_generic_answer_reads_more_of_how_people_say_it() {
    // NVDEC's library by name (NVIDIA/nvidia-docker#766), in a container
    assert_eq!(
        top("[h264_cuvid @ 0x1ec8780] Cannot load libnvcuvid.so.1\nthe container was started with nvidia-docker"),
        "host.container_no_gpu"
    );
    // "cant" without its apostrophe, and Secure Boot (sebastiaanfranken/systemd-boot-conversion#2)
    assert_eq!(
        top("Now the system boots but my nvidia driver cant load because of secure boot."),
        "driver.module_not_loaded"
    );
    // a kernel update that "breaks" the DKMS build (Frogging-Family/nvidia-all#200)
    assert_eq!(
        top("New kernel update break DKMS module for Driver 525"),
        "driver.module_not_loaded"
    );
    // out of memory said in prose, with CUDA's allocator setting
    assert_eq!(
        top("after using export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: (still out of memory)"),
        "workload.out_of_memory"
    );
    // the program saying the CUDA toolkit is not there (hashcat#2791)
    assert_eq!(
        top("Failed to initialize NVIDIA RTC library.\n* Device #1: CUDA SDK Toolkit installation NOT detected or incorrectly installed."),
        "toolkit.not_found"
    );
    // an older release that works on the same machine: the new release's bug
    assert_eq!(
        top("hashcat (v6.0.0) starting...\nclGetDeviceIDs(): CL_DEVICE_NOT_FOUND\n\n5.1.0 works fine on the same system and hardware.\nI use Fedora and drivers from RPM Fusion. Version - 440.82. Card - RTX 2080 Ti, but tested also on GTX 1080 Ti, where it fails too."),
        "workload.library_bug"
    );
}

#[test]
fn the_failing_lines_words_decide_the_phase() {
    // a crash of "illigal memory" (misspelt) with a build command further down: not a build,
    // not memory running out; reverting the program fixed it (ggml-org/llama.cpp#13906)
    let text = "is the CUDA illigal memory bug 75 fixed? many of us had these crashes. reverting to versions 5+ days ago fixed it for me\nCompile command: cmake CUDA=on CUDA archs: 86, 89, 120";
    assert_eq!(top(text), "workload.library_bug");
    let ex = explain(text);
    let m = ex.primary.and_then(|i| ex.matches.get(i)).unwrap();
    assert_eq!(
        m.extracted.get("phase").map(String::as_str),
        Some("unknown")
    );
    // with nothing about the phase on the failing line, the whole text decides it
    let ex = explain("nvcc error on the GPU\nsetup.py build_ext failed");
    let m = ex.primary.and_then(|i| ex.matches.get(i)).unwrap();
    assert_eq!(m.extracted.get("phase").map(String::as_str), Some("build"));
}

#[test]
fn toolchain_rules_from_the_fifth_blind_sample() {
    // nvcc 11.5 with GCC 11's headers (brucefan1983/GPUMD#738)
    assert_eq!(
        top("/usr/include/c++/11/bits/std_function.h:530:146: error: parameter packs not expanded with '...':"),
        "toolkit.host_compiler_unsupported"
    );
    // an -arch value the toolkit predates (ggml-org/whisper.cpp#876)
    assert_eq!(
        top("nvcc fatal   : Value 'native' is not defined for option 'gpu-architecture'"),
        "toolkit.arch_unsupported"
    );
    // the toolkit's CLI without its library (NVIDIA/gpu-rest-engine#35)
    assert_eq!(
        top("/usr/bin/nvidia-container-cli: error while loading shared libraries: libnvidia-container.so.1: cannot open shared object file: No such file or directory"),
        "host.container_no_gpu"
    );
    // a Dockerfile's FROM line says the program runs in a container (jrottenberg/ffmpeg#233)
    assert_eq!(
        top("FROM jrottenberg/ffmpeg:4.2-nvidia\n\nCannot load libcuda.so.1"),
        "host.container_no_gpu"
    );
}

/// The sixth blind sample's general fixes, each on a text written for the test (not the
/// corpus case's): the reset a client blocks, GPUDirect RDMA's module, CUDA 13's Windows DLL
/// folder, a GeForce refused in a VM, WSL's shadowed libcuda, an l4t build, zlib beside a cuDNN
/// DLL, OpenCL's calls, and the reporter's own "missing from PATH".
#[test]
fn sixth_sample_families() {
    let cases: &[(&str, &str)] = &[
        ("$ sudo nvidia-smi -r -i 0\nThe following GPUs could not be reset:\n  GPU 00000000:3B:00.0: In use by another client\n\n1 device is currently being used by one or more other processes (e.g., Fabric Manager, CUDA application, graphics application such as an X server, or a monitoring application such as another instance of nvidia-smi).", "gpu.busy"),
        ("[  12.3] nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -2)\nmodprobe: ERROR: could not insert 'nvidia_peermem': Unknown symbol in module", "driver.module_not_loaded"),
        ("OSError: Could not find module 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\cublas64_13.dll' (or one of its dependencies).", "workload.library_bug"),
        ("Proxmox VM with a GeForce GTX 1080 passed through (vfio-pci), driver 460.91 in the guest:\n$ nvidia-smi\nUnable to determine the device handle for GPU 0000:01:00.0: Unknown Error", "driver.gpu_unsupported"),
        ("Ubuntu 22.04 under WSL2, I installed nvidia-driver-535 inside it.\ncupy.cuda.driver.CUDADriverError: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected (cuInit)", "torch.libs_shadowed"),
        ("docker build -t app . (FROM nvcr.io/nvidia/l4t-base:r32.7.1)\nCMake Error: The following variables are used in this project, but they are set to NOTFOUND.\nCUDA_cublas_LIBRARY (ADVANCED)", "host.container_no_gpu"),
        ("Loading cudnn_ops_infer64_8.dll failed; zlibwapi.dll is needed by it", "torch.wheel_deps_mismatch"),
        ("2019 TensorFlow container: Loaded runtime CuDNN library: 7.6.5 but source was compiled with: 7.4.2. (in docker, nvcr.io image)", "torch.wheel_deps_mismatch"),
    ];
    for (text, want) in cases {
        assert_eq!(top(text), *want, "{text}");
    }
    // a control: nvidia-smi's reset works once nothing holds the GPU; the VM hint needs a VM
    assert_eq!(
        top("$ nvidia-smi\nUnable to determine the device handle for GPU 0000:01:00.0: Unknown Error"),
        "gpu.lost"
    );
    // an OpenCL call's failure is read as a GPU error, not refused
    assert!(
        !explain("clCreateContext(): CL_OUT_OF_RESOURCES\nDevice #1: GeForce GTX 1080")
            .matches
            .is_empty()
    );
    // the reporter's finding outranks what similar threads established
    assert_eq!(
        top("Could not load \"nvrtc64_120_0.dll\": 8 tests failed.\nIt was not in PATH; CUDA_PATH was set."),
        "toolkit.path_inconsistent"
    );
}

/// nvidia-smi's table header "MIG M." is no MIG, and a field it could not read in a
/// `--query-gpu` row is no CUDA status; the nightly's conda plan names a CPU build.
#[test]
fn nvidia_smi_table_words_are_not_errors() {
    let table = "| GPU  Name        Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n|                               |                      |               MIG M. |\nError: CUDA error 100: no CUDA-capable device is detected";
    let ex = explain(table);
    let causes: Vec<&str> = ex.matches[0].causes.iter().map(|c| c.id.as_str()).collect();
    let mig = ex.matches[0]
        .causes
        .iter()
        .find(|c| c.id == "gpu.mig_enabled")
        .map_or(0.0, |c| c.confidence);
    assert!(mig < 0.1, "{causes:?}");
    assert_eq!(
        top("MIG mode is enabled on GPU 0\nError: CUDA error 100: no CUDA-capable device is detected"),
        "gpu.mig_enabled"
    );
    let row = "GeForce RTX 2080 Ti, 100, 37, 56, 228.82, 210.00, 56, 1560, 6800, [Unknown Error]\nfor some reason it started to error out on power.default_limit";
    let ex = explain(row);
    assert!(
        ex.matches
            .iter()
            .all(|m| !m.extracted.contains_key("cuda_error")),
        "{:?}",
        ex.matches.first().map(|m| &m.extracted)
    );
}

/// An NGC-based image refusing the GPU at start-up is the image's build, not the machine.
#[test]
fn a_container_that_refuses_the_gpu() {
    assert_eq!(
        top("ERROR: Detected NVIDIA Tesla K80 GPU, which is not supported by this container\nERROR: No supported GPU(s) detected to run this container"),
        "ext.arch_unsupported"
    );
    assert_eq!(
        top("docker run nvcr.io/nvidia/pytorch:24.01-py3\nERROR: Detected NVIDIA Tesla K80 GPU, which is not supported by this container"),
        "torch.arch_unsupported"
    );
}

/// A `--query-gpu` row with one field nvidia-smi could not read is a working GPU; every field
/// unreadable is a lost one.
#[test]
fn an_unreadable_nvidia_smi_field_is_no_failure() {
    assert_eq!(
        top(
            "GeForce GTX 1080 Ti, 53 %, 3 %, 84, 123.00 W, 262.50 W, [Unknown Error], P2, 1746 MHz"
        ),
        "none"
    );
    assert_eq!(
        top("NVIDIA A10, [Unknown Error], [Unknown Error], [Unknown Error], [Unknown Error]"),
        "gpu.lost"
    );
    // a CUDA error beside it is read first
    assert_eq!(
        top("GeForce RTX 3090, 0 %, [Not Supported], 40\nRuntimeError: CUDA error: out of memory"),
        "workload.out_of_memory"
    );
}

/// The seventh blind sample's families, on texts written for the test: JAX's plugin of
/// another release, a checkpoint's GPU index, MSVC for an extension build, CUDA's peer limit,
/// the driver's initialisation timing out without persistence, cuDNN's arch mismatch in a
/// binding's words, torch's fbgemm.dll named alone, another container release that works.
#[test]
fn seventh_sample_families() {
    let cases: &[(&str, &str)] = &[
        ("jax.errors.JaxRuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Unexpected PJRT_Client_Create_Args size: expected 96, got 88. The plugin is likely built with a later version than the framework.", "torch.wheel_deps_mismatch"),
        ("RuntimeError: Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 2. Please use torch.load with map_location to map your storages to an existing device.", "workload.library_bug"),
        ("UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified\nerror: command 'C:\\\\Program Files\\\\Microsoft Visual Studio\\\\2022\\\\BuildTools\\\\VC\\\\Tools\\\\MSVC\\\\14.38.33130\\\\bin\\\\HostX64\\\\x64\\\\cl.exe' failed with exit code 2", "toolkit.host_compiler_unsupported"),
        ("ncclUnhandledCudaError: Call to CUDA function failed.\ncudaDeviceEnablePeerAccess: peer mapping resources exhausted", "workload.nccl"),
        ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: nvidia-container-cli: initialization error: driver error: timed out: unknown.", "driver.persistence_off"),
        ("Initializing CuDNN backend...\nERROR: Arch mismatch\n in create at /home/u/.julia/packages/Foo/src/cudnn.jl:43", "ext.arch_unsupported"),
        ("OSError: error loading fbgemm.dll on a fresh Windows 11 install", "host.msvc_runtime_missing"),
        ("[FT][ERROR] CUDA runtime error: CUBLAS_STATUS_NOT_SUPPORTED in cublasGemmBatchedEx\nwhen i use nvcr.io/nvidia/pytorch:22.12-py3, it is ok", "workload.library_bug"),
    ];
    for (text, want) in cases {
        assert_eq!(top(text), *want, "{text}");
    }
}

/// A failure whose GPU shows only in the stack frames below it is answered; one whose lines
/// name no GPU within a few lines is not.
#[test]
fn a_failure_above_gpu_frames_is_answered() {
    assert!(!explain("ERROR: LoadError: UndefVarError: foo not defined\nStacktrace:\n  [1] alloc(dev::CUDA.CuDevice)\n    @ CUDA ~/.julia/packages/CUDA/src/pool.jl:93")
        .matches
        .is_empty());
    assert!(explain("ERROR: LoadError: UndefVarError: foo not defined\nStacktrace:\n  [1] main()\n  [2] top-level scope\n  [3] eval\n  [4] include\n  [5] run\nloaded CUDA.jl later")
        .matches
        .is_empty());
}

/// Round 14's families, in texts written for these tests: TensorRT's builder without the
/// GPU's SM, NVRTC's invalid option under CuPy, torch's CPU build in other words, a CUDA C
/// program of one's own without the GPU's kernel, a cuDNN that is absent (not shadowed), a
/// package's compiled ops module missing, a data type the GPU has no fast path for, an
/// embedding index past the table, ONNX Runtime's CUDA_PATH message, nvcc "was not found".
#[test]
fn eighth_sample_families() {
    let cases: &[(&str, &str)] = &[
        ("[E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 120 is not supported by this TensorRT release.)", "ext.arch_unsupported"),
        ("[F] [TRT] Assertion failed: Unsupported SM.\n[E] [TRT] ../rtSafe/cuda/caskUtils.cpp (80) - Assertion Error in trtSmToCask: 0 (Unsupported SM.)", "ext.arch_unsupported"),
        ("cupy_backends/cuda/libs/nvrtc.pyx in cupy_backends.cuda.libs.nvrtc.check_status()\nNVRTCError: NVRTC_ERROR_INVALID_OPTION (5)", "toolkit.arch_unsupported"),
        ("AssertionError: Torch not being compiled with CUDA enabled", "torch.cpu_only"),
        ("$ nvcc saxpy.cu -o saxpy && ./saxpy\nkernel launch: cudaGetErrorString says no kernel image is available for execution on the device", "ext.arch_unsupported"),
        ("  File \"/home/u/venv/lib/python3.8/site-packages/mxnet/base.py\", line 9\nOSError: libcudnn.so.7: cannot open shared object file: No such file or directory\nmy LD_LIBRARY_PATH=/usr/local/cuda/lib64", "torch.wheel_deps_mismatch"),
        ("ModuleNotFoundError: No module named 'mmcv._ext'", "ext.abi_mismatch"),
        ("ValueError: Requested int8_float16 compute type, but the target device or backend do not support efficient int8_float16 computation.", "none"),
        ("RuntimeError: cuFFT doesn't support signals of half type with compute capability less than SM_53, but the device containing input half tensor only has SM_50", "none"),
        ("IndexError: index out of range in self", "workload.device_assert"),
        ("EP Error onnxruntime_pybind_state.cc:739 CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct version of CUDA and cuDNN", "torch.wheel_deps_mismatch"),
        ("UserWarning: flash_attn was requested, but nvcc was not found.  Are you sure your environment has nvcc available?", "toolkit.not_found"),
    ];
    for (text, want) in cases {
        assert_eq!(top(text), *want, "{text}");
    }
    // a cuDNN that loads and then fails on a symbol is another copy, not an absent one
    assert_eq!(
        top("Could not load library libcudnn_cnn_train.so.8. Error: /usr/local/cuda/lib64/libcudnn_cnn_train.so.8: undefined symbol: _ZN5cudnn3cnn5inferE, version libcudnn_cnn_infer.so.8"),
        "torch.libs_shadowed"
    );
}

/// ROCm's variables name an AMD machine only with a value: Ollama's server config lists
/// them empty on every machine.
#[test]
fn rocm_variable_names_without_a_value_are_no_amd_machine() {
    let ollama = "routes.go:1187: INFO server config env=\"map[CUDA_VISIBLE_DEVICES:1 GPU_DEVICE_ORDINAL: HIP_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION: HTTPS_PROXY: ROCR_VISIBLE_DEVICES: http_proxy:]\"\nError: llama runner process has terminated: CUDA error: no kernel image is available for execution on the device";
    assert_ne!(top(ollama), "host.no_nvidia_gpu");
    assert_eq!(
        top("HSA_OVERRIDE_GFX_VERSION=10.3.0 python app.py\nRuntimeError: No CUDA GPUs are available"),
        "host.no_nvidia_gpu"
    );
    assert_eq!(
        top("map[HSA_OVERRIDE_GFX_VERSION:11.0.0 HIP_VISIBLE_DEVICES:0]\nRuntimeError: No CUDA GPUs are available"),
        "host.no_nvidia_gpu"
    );
}

/// Round 15's families, in texts written for these tests: ptxas's static shared-memory
/// limit, cuFFT's internal error on an Ada GPU under an old build, TensorRT without a tactic,
/// an extension built for another compute capability, Omniverse's driver range, the PyTorch
/// C++ API an extension still uses, NaN images, the driver's own PTX JIT, "operation not
/// supported" that an older CUDA fixes, and cuDNN's dependency missing.
#[test]
fn ninth_sample_families() {
    let cases: &[(&str, &str)] = &[
        ("ptxas error   : Entry function '_Z6reduceILi256EEvPKfPf' uses too much shared data (0xc800 bytes, 0xc000 max)\nmake[2]: *** Error 255", "workload.library_bug"),
        ("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\non my RTX 4080 with torch 1.13.1+cu117", "torch.arch_unsupported"),
        ("[E] Error[10]: Could not find any implementation for node {ForeignNode[Conv_12...Relu_40]}", "workload.library_bug"),
        ("OSError: Could not find compatible tinycudann extension for compute capability 86.", "ext.arch_unsupported"),
        ("[Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is unsupported or has known issues. Installed driver: 525.60 The unsupported driver range: [0.0, 535.129)", "driver.too_old_for_toolkit"),
        ("csrc/nms.cpp:5:23: error: 'AT_CHECK' was not declared in this scope", "ext.abi_mismatch"),
        ("fatal error: THC/THC.h: No such file or directory\n #include <THC/THC.h>", "ext.abi_mismatch"),
        ("pipeline_utils.py:120: RuntimeWarning: invalid value encountered in cast\n  images = (images * 255).round().astype(\"uint8\")\nwith torch_dtype=torch.float16", "none"),
        ("ptxas application ptx input, line 9; fatal   : Unsupported .version 7.8; current version is '7.4'", "driver.too_old_for_toolkit"),
        ("RuntimeError: CUDA error: operation not supported\nsolved: downgrading the CUDA toolkit to 12.1 fixed it", "driver.minor_version_compat"),
        ("Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file or directory", "torch.wheel_deps_mismatch"),
    ];
    for (text, want) in cases {
        assert_eq!(top(text), *want, "{text}");
    }
    // the same CUFFT status with memory said is the memory
    assert_eq!(
        top("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR after CUDA out of memory in the previous step"),
        "workload.out_of_memory"
    );
}

#[test]
fn a_bf16_flag_refused_by_hugging_face_is_the_programs_setting() {
    assert_eq!(top("ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0\nGPU: Quadro RTX 6000"), "none");
    assert_eq!(top("ValueError: bf16 mixed precision requires PyTorch >= 1.10 and a supported device.\nmy card is a GTX 1080 Ti"), "none");
    // no GPU torch can use at all: the bf16 check fails for that reason
    assert_eq!(
        top("ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0\n>>> torch.cuda.is_available()\nFalse"),
        "torch.cuda_unavailable"
    );
}

#[test]
fn an_oom_only_supposed_or_avoided_is_not_an_out_of_memory_error() {
    let nan = "/usr/lib/python3/site-packages/pipeline.py:88: RuntimeWarning: invalid value encountered in cast\n  images = (images * 255).round().astype(\"uint8\")\n";
    assert_eq!(
        top(&format!(
            "{nan}I switched to float16 because bf16 would OOM on this card."
        )),
        "none"
    );
    assert_eq!(top(&format!("{nan}用bf16的话会OOM，所以用fp16")), "none");
    assert_eq!(top(&format!("{nan}fp16 to avoid OOM")), "none");
    // what happens every time is an observation
    assert_eq!(
        top("The training will OOM at step 200 every time, batch size 8."),
        "workload.out_of_memory"
    );
    assert_eq!(top("After 3 epochs it OOMs."), "workload.out_of_memory");
}

// lead, blind sample 10 (research-2026-11ac): general changes
#[test]
fn blind_sample_10_general_changes() {
    // an -arch value that is no architecture name is the command's typo; a real name the
    // toolkit's age
    assert_eq!(top("nvcc -c kernel.cu -arch=<your_arch>\nnvcc fatal   : Value '<your_arch>' is not defined for option 'gpu-architecture'"), "none");
    assert_eq!(top("nvcc fatal   : Value 'sm_90' is not defined for option 'gpu-architecture'\nnvcc: NVIDIA (R) Cuda compiler driver, release 11.4"), "toolkit.arch_unsupported");
    // a TensorRT engine whose plugins the loading process did not register
    assert_eq!(top("[TRT] [E] 1: [pluginV2Runner.cpp::load::300] Error Code 1: Serialization (Serialization assertion creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry)\n[TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine deserialization failed.)"), "none");
    // TensorFlow ignoring a GPU below its build's floor
    assert_eq!(top("2020-01-02 I tensorflow/core/common_runtime/gpu/gpu_device.cc:1700] Ignoring visible gpu device (device: 0, name: Quadro K2000, pci bus id: 0000:01:00.0, compute capability: 3.0) with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5."), "torch.arch_unsupported");
    // modinfo given a path; by name it finds the loaded module
    assert_eq!(top("$ modinfo /lib/modules/6.1.0-13-amd64/kernel/drivers/video/nvidia.ko\nmodinfo: ERROR: Module /lib/modules/6.1.0-13-amd64/kernel/drivers/video/nvidia.ko not found.\nnvidia-smi works fine though"), "none");
    // a library's CPU build
    assert_eq!(top("res = faiss.StandardGpuResources()\nAttributeError: module 'faiss' has no attribute 'StandardGpuResources'"), "torch.cpu_only");
    assert_eq!(top("cv2.error: OpenCV(4.8.0) /io/opencv/modules/core/include/opencv2/core/private.cuda.hpp:106: error: (-216:No CUDA support) The library is compiled without CUDA support in function 'throw_no_cuda'"), "torch.cpu_only");
    assert_eq!(top("terminate called after throwing an instance of 'cv::Exception'\n  what():  error: (-213) The called functionality is disabled for current build or platform in function throw_no_cuda"), "torch.cpu_only");
    // NVML answers but refuses an operation; NVML that cannot start is the device files
    assert_eq!(top("$ nvidia-smi -pl 200\nChanging power management limit is not supported for GPU: 00000000:01:00.0.\nDriver Version: 550.54.14\nSetting power limit failed: Insufficient Permissions"), "none");
    assert_eq!(
        top("Failed to initialize NVML: Insufficient Permissions"),
        "driver.device_nodes"
    );
    // MPS configured, daemon unreachable
    assert_eq!(top("RuntimeError: CUDA error: MPS client failed to connect to the MPS control daemon or the MPS server"), "none");
    // nvidia-smi answers inside the container, torch sees no CUDA: a missing device node
    assert_eq!(top("Inside the container nvidia-smi works and shows the GPU.\n>>> torch.cuda.is_available()\nFalse"), "driver.device_nodes");
    assert_eq!(
        top("docker run -it pytorch/pytorch python\n>>> torch.cuda.is_available()\nFalse"),
        "host.container_no_gpu"
    );
}

#[test]
fn blind_paste_sample_8_general_changes() {
    assert_eq!(top("from mylib.ops import fused_gemm\nImportError: cannot import name 'fused_gemm' from 'helperpkg.kernels' (/usr/lib/python3/site-packages/helperpkg/kernels.py)"), "none");
    assert_eq!(
        top("AttributeError: module 'pynvml' has no attribute '_nvmlGetFunctionPointer'"),
        "none"
    );
    assert_eq!(top("[error] This program needs a CUDA-Enabled GPU (with at least compute capablility 2.0).\nMy laptop has a GeForce GTX 960M"), "driver.too_old_for_toolkit");
    assert_eq!(top("[error] This program needs a CUDA-Enabled GPU (with at least compute capability 2.0).\nGraphics: Intel UHD Graphics 620"), "host.no_nvidia_gpu");
}

#[test]
fn cmake_without_a_default_architecture_and_nccl_failing_at_init() {
    assert_eq!(top("CMake Error at C:/Program Files/CMake/share/cmake-3.25/Modules/CMakeDetermineCUDACompiler.cmake:603 (message):\n  Failed to detect a default CUDA architecture.\n\n  Compiler output:"), "workload.library_bug");
    assert_eq!(top("tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled cuda error\n\t [[Node: allreduce/HorovodAllreduce_grads_0 = HorovodAllreduce[T=DT_FLOAT]"), "torch.wheel_deps_mismatch");
}

#[test]
fn no_nvidia_driver_beside_a_torch_from_the_cuda_index_is_a_missing_driver() {
    let no_driver = "UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx";
    assert_eq!(top(no_driver), "host.no_nvidia_gpu");
    assert_eq!(
        top(&format!("PyTorch version: 2.1.0+cu121\n{no_driver}")),
        "driver.not_installed"
    );
}

#[test]
fn a_triton_kernel_launched_from_ones_own_code_is_ones_own_configuration() {
    let err = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 196608, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.";
    let own = format!("Traceback (most recent call last):\n  File \"/home/me/bench.py\", line 20, in <module>\n    matmul_kernel[(64, 64)](a, b, c, BLOCK=256)\n  File \"/usr/lib/python3/site-packages/triton/runtime/jit.py\", line 330, in <lambda>\n{err}");
    assert_eq!(top(&own), "workload.shared_memory");
    let library = format!("Traceback (most recent call last):\n  File \"/usr/lib/python3/site-packages/fancylib/kernels/attn.py\", line 120, in forward\n    _attn_fwd[(grid,)](q, k, v, BLOCK_M=128)\n  File \"/usr/lib/python3/site-packages/triton/runtime/jit.py\", line 330, in <lambda>\n{err}");
    assert_eq!(top(&library), "workload.library_bug");
}

#[test]
fn a_failed_link_step_names_no_architecture() {
    let t = "Our project's build with CUDA 12.4 fails with a linker error: undefined reference to `cublasLtMatmul'\ncollect2: error: ld returned 1 exit status";
    assert_ne!(top(t), "toolkit.arch_unsupported");
}

#[test]
fn blind_sample_11_general_changes() {
    assert_eq!(
        top("GPU #0: no kernal image is available for execution on device"),
        "torch.arch_unsupported"
    );
    assert_eq!(top("[ctranslate2] [thread 100] [warning] The compute type inferred from the saved model is float16, but the target device or backend do not support efficient float16 computation. The model weights have been automatically converted to use the float32 compute type instead."), "none");
    assert_eq!(top("12:00:01:WARNING:FS00:No CUDA or OpenCL 1.2+ support detected for GPU slot 00: gpu:1:0 TU106 [GeForce RTX 2070]. Disabling."), "driver.too_old_for_toolkit");
    assert_eq!(top("Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability 7.0 on device with compute capability 8.6 , this will not work"), "ext.arch_unsupported");
    assert_eq!(
        top("TypeError: launch_config() got an unexpected keyword argument 'stream_priority'"),
        "workload.library_bug"
    );
    assert_eq!(top("docker: Error response from daemon: failed to create task: error mounting \"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.570.86.15\": no such file or directory"), "host.container_no_gpu");
    assert_eq!(top("Docker Desktop on WSL2: cudaGetDeviceCount returned 500 -> named symbol not found, inside the container only"), "host.container_no_gpu");
}

#[test]
fn pip_refusing_conflicting_requirements_is_no_fault_of_the_machine() {
    assert_eq!(top("ERROR: Cannot install mypkg[train]==1.2 and mypkg because these package versions have conflicting dependencies.\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/"), "none");
}
