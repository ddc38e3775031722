//! The only module allowed `unsafe`: calls into the CUDA driver (libcuda) and cuBLASLt.
//!
//! Everything here runs in the driver worker process, never in the doctor itself: a
//! broken driver may crash or hang.
//!
//! The entry points are called through signatures that return a plain `i32`, not a Rust
//! enum of `CUresult`s: a driver newer (or stranger) than any bindings can return a code
//! outside such an enum, which would be undefined behaviour the moment the value is
//! produced.
//!
//! libcuda is loaded as `libcuda.so.1` first (the driver's soname, what the CUDA runtime
//! and PyTorch load), and only then as `libcuda.so`: the toolkit's `stubs/libcuda.so`
//! on the search path answers every call with CUDA_ERROR_STUB_LIBRARY (34), while the
//! runtime never sees it (cudarc tries the names the other way round).
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

/// A raw `CUresult`, exactly as the driver returned it.
pub type RawCuResult = i32;

/// Why an entry point could not be called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The library lacks the symbol (an older driver).
    MissingSymbol(String),
}

/// A failed driver (or cuBLASLt) call: the code it returned, or the symbol it lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CuError {
    /// The raw return code (a `CUresult`, or a `cublasStatus_t` for cuBLASLt calls).
    Code {
        call: &'static str,
        code: i32,
    },
    MissingSymbol(String),
}

impl From<CallError> for CuError {
    fn from(e: CallError) -> Self {
        match e {
            CallError::MissingSymbol(s) => CuError::MissingSymbol(s),
        }
    }
}

pub type CuResult<T> = Result<T, CuError>;

fn check(call: &'static str, code: c_int) -> CuResult<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(CuError::Code { call, code })
    }
}

/// `CUdevice_attribute` values, from cuda.h.
pub mod attr {
    pub const MAX_THREADS_PER_BLOCK: i32 = 1;
    pub const MAX_BLOCK_DIM_X: i32 = 2;
    pub const MAX_BLOCK_DIM_Y: i32 = 3;
    pub const MAX_BLOCK_DIM_Z: i32 = 4;
    pub const MAX_GRID_DIM_X: i32 = 5;
    pub const MAX_GRID_DIM_Y: i32 = 6;
    pub const MAX_GRID_DIM_Z: i32 = 7;
    pub const MAX_SHARED_MEMORY_PER_BLOCK: i32 = 8;
    pub const MULTIPROCESSOR_COUNT: i32 = 16;
    /// `CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT`: a run-time limit on kernels (the display
    /// watchdog); a kernel past it dies with CUDA_ERROR_LAUNCH_TIMEOUT (702).
    pub const KERNEL_EXEC_TIMEOUT: i32 = 17;
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 75;
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 76;
    pub const MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: i32 = 81;
    pub const MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: i32 = 97;
}

/// The loaded libcuda, for the life of the process.
pub struct CudaDriver {
    lib: &'static libloading::Library,
    /// The name that loaded (e.g. "libcuda.so.1").
    pub loaded_name: String,
}

/// Whether this build can load the driver's shared libraries at all. A fully static musl
/// executable (scripts/release.sh) has no dynamic loader: every dlopen fails, so NVML and
/// cuInit would look broken on a healthy GPU machine. Such a build must not judge one.
pub const CAN_LOAD_DRIVER: bool = !cfg!(all(target_env = "musl", target_feature = "crt-static"));

/// The names libcuda is loaded by, in order: the driver's soname first.
pub const CUDA_LIBRARY_NAMES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

/// `CUDA_ERROR_STUB_LIBRARY`: the toolkit's link-time stub answered, not a driver.
pub const CUDA_ERROR_STUB_LIBRARY: i32 = 34;

/// Loads libcuda (`CUDA_LIBRARY_NAMES` in order). `Err` lists every name tried and the
/// loader's last complaint.
pub fn load_cuda() -> Result<CudaDriver, String> {
    let mut last_error = String::new();
    for name in CUDA_LIBRARY_NAMES {
        // SAFETY: loading runs the library's initialisers; this is a worker process,
        // whose whole purpose is to survive or die on exactly that.
        match unsafe { libloading::Library::new(name) } {
            Ok(lib) => {
                // Kept for the life of the process: driver threads must never see it
                // unloaded.
                let lib: &'static libloading::Library = Box::leak(Box::new(lib));
                return Ok(CudaDriver {
                    lib,
                    loaded_name: name.to_string(),
                });
            }
            Err(e) => last_error = error_chain(&e),
        }
    }
    Err(format!(
        "none of {} loaded (last error: {last_error})",
        CUDA_LIBRARY_NAMES.join(", ")
    ))
}

/// libloading keeps dlerror's text in the error's source.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

impl CudaDriver {
    /// `cuInit(0)`.
    pub fn init(&self) -> Result<RawCuResult, CallError> {
        type F = unsafe extern "C" fn(c_uint) -> c_int;
        let f = self.symbol::<F>("cuInit")?;
        // SAFETY: signature from cuda.h; CUresult is returned as a C int.
        Ok(unsafe { f(0) })
    }

    /// `cuDriverGetVersion`: the CUDA version the driver supports, e.g. 12040. Works
    /// before and without a successful `cuInit`.
    pub fn driver_version(&self) -> Result<(RawCuResult, i32), CallError> {
        type F = unsafe extern "C" fn(*mut c_int) -> c_int;
        let f = self.symbol::<F>("cuDriverGetVersion")?;
        let mut version: c_int = 0;
        // SAFETY: the pointer is to a live local int.
        let rc = unsafe { f(&mut version) };
        Ok((rc, version))
    }

    /// `cuDeviceGetCount`.
    pub fn device_count(&self) -> Result<(RawCuResult, i32), CallError> {
        type F = unsafe extern "C" fn(*mut c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceGetCount")?;
        let mut count: c_int = 0;
        // SAFETY: the pointer is to a live local int.
        let rc = unsafe { f(&mut count) };
        Ok((rc, count))
    }

    /// The driver's own name for a code (`cuGetErrorName`); `None` when it has none.
    pub fn error_name(&self, code: RawCuResult) -> Option<String> {
        self.error_text("cuGetErrorName", code)
    }

    /// The driver's own description of a code (`cuGetErrorString`).
    pub fn error_string(&self, code: RawCuResult) -> Option<String> {
        self.error_text("cuGetErrorString", code)
    }

    /// `cuDeviceGet`: the handle of a CUDA ordinal.
    pub fn device(&self, ordinal: i32) -> CuResult<Device> {
        type F = unsafe extern "C" fn(*mut c_int, c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceGet")?;
        let mut dev: c_int = 0;
        // SAFETY: out-pointer to a live local.
        check("cuDeviceGet", unsafe { f(&mut dev, ordinal) })?;
        Ok(Device(dev))
    }

    pub fn device_name(&self, dev: Device) -> CuResult<String> {
        type F = unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceGetName")?;
        let mut buf = [0 as c_char; 256];
        // SAFETY: the length passed is the buffer's; the driver NUL-terminates within it.
        check("cuDeviceGetName", unsafe {
            f(buf.as_mut_ptr(), 255, dev.0)
        })?;
        Ok(c_buf_to_string(&buf))
    }

    pub fn device_attribute(&self, dev: Device, attribute: i32) -> CuResult<i32> {
        type F = unsafe extern "C" fn(*mut c_int, c_int, c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceGetAttribute")?;
        let mut value: c_int = 0;
        // SAFETY: out-pointer to a live local.
        check("cuDeviceGetAttribute", unsafe {
            f(&mut value, attribute, dev.0)
        })?;
        Ok(value)
    }

    pub fn device_total_mem(&self, dev: Device) -> CuResult<u64> {
        type F = unsafe extern "C" fn(*mut usize, c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceTotalMem_v2")?;
        let mut bytes: usize = 0;
        // SAFETY: out-pointer to a live local.
        check("cuDeviceTotalMem_v2", unsafe { f(&mut bytes, dev.0) })?;
        Ok(bytes as u64)
    }

    /// e.g. "0000:01:00.0".
    pub fn device_pci_bus_id(&self, dev: Device) -> CuResult<String> {
        type F = unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceGetPCIBusId")?;
        let mut buf = [0 as c_char; 64];
        // SAFETY: the length passed is the buffer's.
        check("cuDeviceGetPCIBusId", unsafe {
            f(buf.as_mut_ptr(), 63, dev.0)
        })?;
        Ok(c_buf_to_string(&buf))
    }

    /// The 16 UUID bytes and whether they name a MIG instance. Under MIG,
    /// `cuDeviceGetUuid_v2` (CUDA 11.4+) returns the instance's UUID and the older
    /// `cuDeviceGetUuid` its parent GPU's: they differ exactly on a MIG instance.
    pub fn device_uuid(&self, dev: Device) -> CuResult<([u8; 16], bool)> {
        type F = unsafe extern "C" fn(*mut [u8; 16], c_int) -> c_int;
        let get = |name: &'static str| -> CuResult<[u8; 16]> {
            let f = self.symbol::<F>(name)?;
            let mut uuid = [0u8; 16];
            // SAFETY: CUuuid is `struct { char bytes[16]; }`; out-pointer to a live local.
            check(name, unsafe { f(&mut uuid, dev.0) })?;
            Ok(uuid)
        };
        match get("cuDeviceGetUuid_v2") {
            Ok(v2) => {
                let mig = get("cuDeviceGetUuid").is_ok_and(|v1| v1 != v2);
                Ok((v2, mig))
            }
            Err(CuError::MissingSymbol(_)) => Ok((get("cuDeviceGetUuid")?, false)),
            Err(e) => Err(e),
        }
    }

    /// Retains the device's primary context (the one the runtime API and PyTorch use) and
    /// makes it current on this thread.
    pub fn primary_context(&self, dev: Device) -> CuResult<Context<'_>> {
        type Retain = unsafe extern "C" fn(*mut *mut c_void, c_int) -> c_int;
        type SetCurrent = unsafe extern "C" fn(*mut c_void) -> c_int;
        let retain = self.symbol::<Retain>("cuDevicePrimaryCtxRetain")?;
        let set_current = self.symbol::<SetCurrent>("cuCtxSetCurrent")?;
        let mut ctx: *mut c_void = std::ptr::null_mut();
        // SAFETY: out-pointer to a live local.
        check("cuDevicePrimaryCtxRetain", unsafe {
            retain(&mut ctx, dev.0)
        })?;
        let context = Context {
            driver: self,
            dev,
            raw: ctx,
            jit_log: std::cell::RefCell::new(String::new()),
        };
        // SAFETY: `ctx` was just returned by the driver.
        check("cuCtxSetCurrent", unsafe { set_current(ctx) })?;
        Ok(context)
    }

    /// `cuDeviceCanAccessPeer`: whether contexts on `dev` can access `peer`'s memory
    /// directly (NVLink, or PCIe where the platform allows it).
    pub fn can_access_peer(&self, dev: Device, peer: Device) -> CuResult<bool> {
        type F = unsafe extern "C" fn(*mut c_int, c_int, c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceCanAccessPeer")?;
        let mut can: c_int = 0;
        // SAFETY: out-pointer to a live local.
        check("cuDeviceCanAccessPeer", unsafe {
            f(&mut can, dev.0, peer.0)
        })?;
        Ok(can != 0)
    }

    fn error_text(&self, symbol: &str, code: RawCuResult) -> Option<String> {
        type F = unsafe extern "C" fn(c_int, *mut *const c_char) -> c_int;
        let f = self.symbol::<F>(symbol).ok()?;
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: the code is passed as the C int it is; the out-pointer is a live local.
        let rc = unsafe { f(code, &mut text) };
        if rc != 0 || text.is_null() {
            return None;
        }
        // SAFETY: on success the driver points at a static NUL-terminated string.
        let s = unsafe { CStr::from_ptr(text) };
        Some(s.to_string_lossy().into_owned())
    }

    pub(crate) fn symbol<F: Copy>(&self, name: &str) -> Result<F, CallError> {
        // SAFETY: every caller names the C signature of `name` from cuda.h as `F`, with
        // `CUresult` as `c_int`.
        match unsafe { self.lib.get::<F>(name) } {
            Ok(sym) => Ok(*sym),
            Err(e) => Err(CallError::MissingSymbol(format!("{name}: {e}"))),
        }
    }
}

/// `CUdevice`: an ordinal's handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Device(pub i32);

fn c_buf_to_string(buf: &[c_char]) -> String {
    let bytes: Vec<u8> = buf
        .iter()
        .take_while(|c| **c != 0)
        .map(|c| c.to_ne_bytes()[0])
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The current primary context; released on drop. Everything that needs a context
/// borrows it, so nothing outlives it.
pub struct Context<'d> {
    driver: &'d CudaDriver,
    dev: Device,
    /// The `CUcontext` handle (peer access and peer copies name contexts).
    raw: *mut c_void,
    /// The JIT's error log of the last failed module load.
    jit_log: std::cell::RefCell<String>,
}

/// One argument of a kernel launch, by value.
#[derive(Debug, Clone, Copy)]
pub enum KernelArg {
    Ptr(u64),
    U32(u32),
}

/// Grid and block shape of a launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchShape {
    pub grid: [u32; 3],
    pub block: [u32; 3],
}

impl<'d> Context<'d> {
    fn sym<F: Copy>(&self, name: &str) -> CuResult<F> {
        Ok(self.driver.symbol::<F>(name)?)
    }

    /// `cuCtxSetCurrent`: makes this context current on the calling thread (a worker
    /// that holds several GPUs' contexts switches before each GPU's calls).
    pub fn make_current(&self) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        let f = self.sym::<F>("cuCtxSetCurrent")?;
        // SAFETY: `raw` was returned by cuDevicePrimaryCtxRetain and is retained until drop.
        check("cuCtxSetCurrent", unsafe { f(self.raw) })
    }

    pub fn device(&self) -> Device {
        self.dev
    }

    /// `cuCtxEnablePeerAccess`: lets this context (made current here) access `peer`'s
    /// memory. Enabling it twice is `CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED` (704).
    pub fn enable_peer_access(&self, peer: &Context<'_>) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void, c_uint) -> c_int;
        let f = self.sym::<F>("cuCtxEnablePeerAccess")?;
        self.make_current()?;
        // SAFETY: `peer.raw` is a retained context; flags must be 0 (cuda.h).
        check("cuCtxEnablePeerAccess", unsafe { f(peer.raw, 0) })
    }

    /// `cuMemcpyPeerAsync` of `min(len)` bytes from `src` (in its context) to `dst` (in
    /// its), queued on `stream`: not waited for.
    pub fn copy_peer_async(
        &self,
        dst: &DeviceMemory<'_>,
        src: &DeviceMemory<'_>,
        stream: &Stream<'_>,
    ) -> CuResult<()> {
        type F =
            unsafe extern "C" fn(u64, *mut c_void, u64, *mut c_void, usize, *mut c_void) -> c_int;
        let f = self.sym::<F>("cuMemcpyPeerAsync")?;
        // SAFETY: both allocations hold at least the smaller size and belong to the
        // contexts named with them; the stream is live.
        check("cuMemcpyPeerAsync", unsafe {
            f(
                dst.ptr,
                dst.ctx.raw,
                src.ptr,
                src.ctx.raw,
                dst.bytes.min(src.bytes),
                stream.stream,
            )
        })
    }

    /// `cuCtxSynchronize`: waits for all work and returns the first asynchronous error.
    pub fn synchronize(&self) -> CuResult<()> {
        type F = unsafe extern "C" fn() -> c_int;
        let f = self.sym::<F>("cuCtxSynchronize")?;
        // SAFETY: no arguments; a context is current.
        check("cuCtxSynchronize", unsafe { f() })
    }

    /// `cuMemGetInfo_v2`: (free, total) bytes.
    pub fn mem_info(&self) -> CuResult<(u64, u64)> {
        type F = unsafe extern "C" fn(*mut usize, *mut usize) -> c_int;
        let f = self.sym::<F>("cuMemGetInfo_v2")?;
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: out-pointers to live locals.
        check("cuMemGetInfo_v2", unsafe { f(&mut free, &mut total) })?;
        Ok((free as u64, total as u64))
    }

    /// `cuModuleLoadDataEx` on PTX text (JIT-compiled by the driver), with an error-log
    /// buffer: on failure the compiler's message is kept (`jit_log`).
    pub fn load_ptx(&self, ptx: &str) -> CuResult<Module<'_>> {
        type F = unsafe extern "C" fn(
            *mut *mut c_void,
            *const c_void,
            c_uint,
            *mut c_int,
            *mut *mut c_void,
        ) -> c_int;
        /// `CU_JIT_ERROR_LOG_BUFFER`, `CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES` (cuda.h).
        const ERROR_LOG_BUFFER: c_int = 5;
        const ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
        const LOG_BYTES: usize = 8192;
        let f = self.sym::<F>("cuModuleLoadDataEx")?;
        let mut image = ptx.as_bytes().to_vec();
        image.push(0);
        let mut log = vec![0u8; LOG_BYTES];
        let mut options = [ERROR_LOG_BUFFER, ERROR_LOG_BUFFER_SIZE_BYTES];
        let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), LOG_BYTES as *mut c_void];
        let mut module: *mut c_void = std::ptr::null_mut();
        // SAFETY: the image is NUL-terminated PTX text that outlives the call; the log
        // buffer holds LOG_BYTES bytes, its size passed by value in the pointer slot as
        // cuda.h specifies.
        let rc = unsafe {
            f(
                &mut module,
                image.as_ptr().cast(),
                2,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if rc != 0 {
            let end = log.iter().position(|b| *b == 0).unwrap_or(log.len());
            *self.jit_log.borrow_mut() = String::from_utf8_lossy(&log[..end]).trim().to_string();
        }
        check("cuModuleLoadDataEx", rc)?;
        Ok(Module { ctx: self, module })
    }

    /// The JIT compiler's message from the last failed `load_ptx` (empty if none).
    pub fn jit_log(&self) -> String {
        self.jit_log.borrow().clone()
    }

    /// Whether kernels on this device run under a time limit (the display watchdog).
    pub fn has_watchdog(&self) -> CuResult<bool> {
        Ok(self
            .driver
            .device_attribute(self.dev, attr::KERNEL_EXEC_TIMEOUT)?
            != 0)
    }

    /// `cuEventCreate` (default flags: timing enabled).
    pub fn event(&self) -> CuResult<Event<'_>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, c_uint) -> c_int;
        let f = self.sym::<F>("cuEventCreate")?;
        let mut event: *mut c_void = std::ptr::null_mut();
        // SAFETY: out-pointer to a live local.
        check("cuEventCreate", unsafe { f(&mut event, 0) })?;
        Ok(Event { ctx: self, event })
    }

    /// `cuMemAlloc_v2`.
    pub fn alloc(&self, bytes: usize) -> CuResult<DeviceMemory<'_>> {
        type F = unsafe extern "C" fn(*mut u64, usize) -> c_int;
        let f = self.sym::<F>("cuMemAlloc_v2")?;
        let mut ptr: u64 = 0;
        // SAFETY: out-pointer to a live local.
        check("cuMemAlloc_v2", unsafe { f(&mut ptr, bytes) })?;
        Ok(DeviceMemory {
            ctx: self,
            ptr,
            bytes,
        })
    }

    /// `cuMemAllocHost_v2`: page-locked host memory (what fast transfers need).
    pub fn alloc_pinned(&self, bytes: usize) -> CuResult<PinnedMemory<'_>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, usize) -> c_int;
        let f = self.sym::<F>("cuMemAllocHost_v2")?;
        let mut ptr: *mut c_void = std::ptr::null_mut();
        // SAFETY: out-pointer to a live local.
        check("cuMemAllocHost_v2", unsafe { f(&mut ptr, bytes) })?;
        if ptr.is_null() {
            return Err(CuError::Code {
                call: "cuMemAllocHost_v2",
                code: 2,
            });
        }
        // The driver hands out uninitialised memory: zero it before any slice of it
        // exists (a `&[u8]` over uninitialised bytes is undefined behaviour).
        // SAFETY: the driver returned `bytes` writable bytes at `ptr`.
        unsafe { std::ptr::write_bytes(ptr.cast::<u8>(), 0, bytes) };
        Ok(PinnedMemory {
            ctx: self,
            ptr: ptr.cast(),
            bytes,
        })
    }

    /// `cuMemcpyHtoD_v2`. From pageable memory it returns once the bytes are staged; the
    /// copy lands later on the legacy stream: other streams must wait for it
    /// (`synchronize`). From pinned memory it is synchronous.
    pub fn copy_to_device(&self, dst: &DeviceMemory<'_>, src: &[u8]) -> CuResult<()> {
        type F = unsafe extern "C" fn(u64, *const c_void, usize) -> c_int;
        let f = self.sym::<F>("cuMemcpyHtoD_v2")?;
        let n = src.len().min(dst.bytes);
        // SAFETY: `src` is valid for `n` bytes and `dst` was allocated with at least `n`.
        check("cuMemcpyHtoD_v2", unsafe {
            f(dst.ptr, src.as_ptr().cast(), n)
        })
    }

    /// Copies device memory into host bytes; returns once the copy is complete, after the
    /// legacy stream's earlier work (not after a non-blocking stream's).
    pub fn copy_to_host(&self, dst: &mut [u8], src: &DeviceMemory<'_>) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void, u64, usize) -> c_int;
        let f = self.sym::<F>("cuMemcpyDtoH_v2")?;
        let n = dst.len().min(src.bytes);
        // SAFETY: `dst` is valid for `n` bytes and `src` was allocated with at least `n`.
        check("cuMemcpyDtoH_v2", unsafe {
            f(dst.as_mut_ptr().cast(), src.ptr, n)
        })
    }

    /// `cuMemcpyDtoD_v2` of `min(len)` bytes: queued on the legacy stream, not waited for.
    pub fn copy_device_to_device(
        &self,
        dst: &DeviceMemory<'_>,
        src: &DeviceMemory<'_>,
    ) -> CuResult<()> {
        type F = unsafe extern "C" fn(u64, u64, usize) -> c_int;
        let f = self.sym::<F>("cuMemcpyDtoD_v2")?;
        // SAFETY: both allocations hold at least the smaller size.
        check("cuMemcpyDtoD_v2", unsafe {
            f(dst.ptr, src.ptr, dst.bytes.min(src.bytes))
        })
    }

    /// `cuMemsetD32_v2`: fills the words; asynchronous (queued on the legacy stream).
    pub fn memset_u32(&self, dst: &DeviceMemory<'_>, value: u32) -> CuResult<()> {
        type F = unsafe extern "C" fn(u64, c_uint, usize) -> c_int;
        let f = self.sym::<F>("cuMemsetD32_v2")?;
        // SAFETY: the word count fits in the allocation.
        check("cuMemsetD32_v2", unsafe {
            f(dst.ptr, value, dst.bytes / 4)
        })
    }

    /// `cuLaunchKernel` on a stream (`None`: the legacy default stream).
    pub fn launch(
        &self,
        function: &Function<'_>,
        shape: LaunchShape,
        args: &[KernelArg],
        stream: Option<&Stream<'_>>,
    ) -> CuResult<()> {
        type F = unsafe extern "C" fn(
            *mut c_void,
            c_uint,
            c_uint,
            c_uint,
            c_uint,
            c_uint,
            c_uint,
            c_uint,
            *mut c_void,
            *mut *mut c_void,
            *mut *mut c_void,
        ) -> c_int;
        let f = self.sym::<F>("cuLaunchKernel")?;
        // Each parameter lives in its own 8-byte slot; the driver reads as many bytes as
        // the kernel's parameter needs from each pointer.
        let mut slots: Vec<u64> = args
            .iter()
            .map(|a| match a {
                KernelArg::Ptr(p) => *p,
                KernelArg::U32(v) => u64::from(*v),
            })
            .collect();
        let mut pointers: Vec<*mut c_void> = slots
            .iter_mut()
            .map(|s| std::ptr::from_mut(s).cast::<c_void>())
            .collect();
        let [gx, gy, gz] = shape.grid;
        let [bx, by, bz] = shape.block;
        let stream = stream.map_or(std::ptr::null_mut(), |s| s.stream);
        // SAFETY: the parameter array points at live slots laid out as the kernel's
        // parameters (u64 pointers; u32 values in the low bytes of a little-endian
        // slot); `extra` is NULL.
        let rc = unsafe {
            f(
                function.function,
                gx,
                gy,
                gz,
                bx,
                by,
                bz,
                0,
                stream,
                pointers.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        drop(slots);
        check("cuLaunchKernel", rc)
    }

    /// Copies pinned host memory to the device (synchronous with respect to the host).
    pub fn copy_pinned_to_device(
        &self,
        dst: &DeviceMemory<'_>,
        src: &PinnedMemory<'_>,
    ) -> CuResult<()> {
        self.copy_to_device(dst, src.as_slice())
    }

    /// `cuStreamCreate` (non-blocking, so capture does not involve the legacy stream).
    /// Such a stream orders after nothing on the legacy stream: work queued there
    /// (memsets, pageable uploads) must be waited for with `synchronize` first.
    pub fn stream(&self) -> CuResult<Stream<'_>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, c_uint) -> c_int;
        let f = self.sym::<F>("cuStreamCreate")?;
        let mut stream: *mut c_void = std::ptr::null_mut();
        const CU_STREAM_NON_BLOCKING: c_uint = 1;
        // SAFETY: out-pointer to a live local.
        check("cuStreamCreate", unsafe {
            f(&mut stream, CU_STREAM_NON_BLOCKING)
        })?;
        Ok(Stream { ctx: self, stream })
    }
}

impl Drop for Context<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(c_int) -> c_int;
        if let Ok(f) = self.driver.symbol::<F>("cuDevicePrimaryCtxRelease_v2") {
            // SAFETY: releases the retain taken in `primary_context`.
            unsafe { f(self.dev.0) };
        }
    }
}

pub struct Module<'c> {
    ctx: &'c Context<'c>,
    module: *mut c_void,
}

impl Module<'_> {
    /// `cuModuleGetFunction`.
    pub fn function(&self, name: &str) -> CuResult<Function<'_>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, *mut c_void, *const c_char) -> c_int;
        let f = self.ctx.sym::<F>("cuModuleGetFunction")?;
        let cname = std::ffi::CString::new(name).map_err(|_| CuError::Code {
            call: "cuModuleGetFunction",
            code: 1,
        })?;
        let mut function: *mut c_void = std::ptr::null_mut();
        // SAFETY: the module is loaded; the name is NUL-terminated.
        check("cuModuleGetFunction", unsafe {
            f(&mut function, self.module, cname.as_ptr())
        })?;
        Ok(Function {
            _module: self,
            function,
        })
    }
}

impl Drop for Module<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuModuleUnload") {
            // SAFETY: the module was loaded by `load_ptx` and is unloaded once.
            unsafe { f(self.module) };
        }
    }
}

pub struct Function<'m> {
    _module: &'m Module<'m>,
    function: *mut c_void,
}

pub struct DeviceMemory<'c> {
    ctx: &'c Context<'c>,
    ptr: u64,
    bytes: usize,
}

impl DeviceMemory<'_> {
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for DeviceMemory<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(u64) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuMemFree_v2") {
            // SAFETY: allocated by `alloc`, freed once.
            unsafe { f(self.ptr) };
        }
    }
}

/// Page-locked host memory, seen from Rust as a byte slice.
pub struct PinnedMemory<'c> {
    ctx: &'c Context<'c>,
    ptr: *mut u8,
    bytes: usize,
}

impl PinnedMemory<'_> {
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: the driver returned `bytes` bytes of host memory at `ptr`, alive until drop.
        unsafe { std::slice::from_raw_parts(self.ptr, self.bytes) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.bytes) }
    }
}

impl Drop for PinnedMemory<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuMemFreeHost") {
            // SAFETY: allocated by `alloc_pinned`, freed once.
            unsafe { f(self.ptr.cast()) };
        }
    }
}

pub struct Stream<'c> {
    ctx: &'c Context<'c>,
    stream: *mut c_void,
}

/// `CU_STREAM_CAPTURE_MODE_THREAD_LOCAL`: only this thread's unsafe calls are refused
/// during capture.
const CAPTURE_MODE_THREAD_LOCAL: c_int = 1;

impl<'c> Stream<'c> {
    pub fn synchronize(&self) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        let f = self.ctx.sym::<F>("cuStreamSynchronize")?;
        // SAFETY: a live stream.
        check("cuStreamSynchronize", unsafe { f(self.stream) })
    }

    pub fn begin_capture(&self) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;
        let f = self.ctx.sym::<F>("cuStreamBeginCapture_v2")?;
        // SAFETY: a live stream.
        check("cuStreamBeginCapture_v2", unsafe {
            f(self.stream, CAPTURE_MODE_THREAD_LOCAL)
        })
    }

    pub fn end_capture(&self) -> CuResult<Graph<'c>> {
        type F = unsafe extern "C" fn(*mut c_void, *mut *mut c_void) -> c_int;
        let f = self.ctx.sym::<F>("cuStreamEndCapture")?;
        let mut graph: *mut c_void = std::ptr::null_mut();
        // SAFETY: out-pointer to a live local.
        check("cuStreamEndCapture", unsafe { f(self.stream, &mut graph) })?;
        Ok(Graph {
            ctx: self.ctx,
            graph,
        })
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuStreamDestroy_v2") {
            // SAFETY: created by `stream`, destroyed once.
            unsafe { f(self.stream) };
        }
    }
}

pub struct Graph<'c> {
    ctx: &'c Context<'c>,
    graph: *mut c_void,
}

impl<'c> Graph<'c> {
    /// `cuGraphInstantiateWithFlags` (CUDA 11.4+), else `cuGraphInstantiate_v2` (CUDA
    /// 11.0–12.x); the name of the call used comes back with the executable graph.
    pub fn instantiate(&self) -> CuResult<(GraphExec<'c>, &'static str)> {
        type WithFlags = unsafe extern "C" fn(*mut *mut c_void, *mut c_void, u64) -> c_int;
        type V2 = unsafe extern "C" fn(
            *mut *mut c_void,
            *mut c_void,
            *mut *mut c_void,
            *mut c_char,
            usize,
        ) -> c_int;
        let mut exec: *mut c_void = std::ptr::null_mut();
        let call = match self.ctx.sym::<WithFlags>("cuGraphInstantiateWithFlags") {
            Ok(f) => {
                // SAFETY: a captured graph; out-pointer to a live local.
                check("cuGraphInstantiateWithFlags", unsafe {
                    f(&mut exec, self.graph, 0)
                })?;
                "cuGraphInstantiateWithFlags"
            }
            Err(CuError::MissingSymbol(first)) => {
                let f = self.ctx.sym::<V2>("cuGraphInstantiate_v2").map_err(|e| {
                    CuError::MissingSymbol(format!("{first}; {}", missing_text(&e)))
                })?;
                let mut error_node: *mut c_void = std::ptr::null_mut();
                let mut log = [0 as c_char; 512];
                // SAFETY: out-pointers to live locals; the log buffer's length is passed.
                check("cuGraphInstantiate_v2", unsafe {
                    f(
                        &mut exec,
                        self.graph,
                        &mut error_node,
                        log.as_mut_ptr(),
                        log.len(),
                    )
                })?;
                "cuGraphInstantiate_v2"
            }
            Err(e) => return Err(e),
        };
        Ok((
            GraphExec {
                ctx: self.ctx,
                exec,
            },
            call,
        ))
    }
}

impl Drop for Graph<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuGraphDestroy") {
            // SAFETY: from `end_capture`, destroyed once.
            unsafe { f(self.graph) };
        }
    }
}

fn missing_text(e: &CuError) -> String {
    match e {
        CuError::MissingSymbol(s) => s.clone(),
        CuError::Code { call, code } => format!("{call} returned {code}"),
    }
}

/// A CUDA event, for timing work on the GPU itself.
pub struct Event<'c> {
    ctx: &'c Context<'c>,
    event: *mut c_void,
}

impl Event<'_> {
    /// `cuEventRecord` on the legacy stream (`None`) or a stream.
    pub fn record(&self, stream: Option<&Stream<'_>>) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int;
        let f = self.ctx.sym::<F>("cuEventRecord")?;
        let stream = stream.map_or(std::ptr::null_mut(), |s| s.stream);
        // SAFETY: a live event and stream.
        check("cuEventRecord", unsafe { f(self.event, stream) })
    }

    pub fn synchronize(&self) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        let f = self.ctx.sym::<F>("cuEventSynchronize")?;
        // SAFETY: a live event.
        check("cuEventSynchronize", unsafe { f(self.event) })
    }

    /// Milliseconds from `self` to `end`, both completed (`cuEventElapsedTime`).
    pub fn elapsed_ms(&self, end: &Event<'_>) -> CuResult<f32> {
        type F = unsafe extern "C" fn(*mut f32, *mut c_void, *mut c_void) -> c_int;
        let f = self.ctx.sym::<F>("cuEventElapsedTime")?;
        let mut ms: f32 = 0.0;
        // SAFETY: out-pointer to a live local; two live events.
        check("cuEventElapsedTime", unsafe {
            f(&mut ms, self.event, end.event)
        })?;
        Ok(ms)
    }
}

impl Drop for Event<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuEventDestroy_v2") {
            // SAFETY: created by `event`, destroyed once.
            unsafe { f(self.event) };
        }
    }
}

pub struct GraphExec<'c> {
    ctx: &'c Context<'c>,
    exec: *mut c_void,
}

impl GraphExec<'_> {
    pub fn launch(&self, stream: &Stream<'_>) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int;
        let f = self.ctx.sym::<F>("cuGraphLaunch")?;
        // SAFETY: an instantiated graph and a live stream.
        check("cuGraphLaunch", unsafe { f(self.exec, stream.stream) })
    }
}

impl Drop for GraphExec<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.ctx.sym::<F>("cuGraphExecDestroy") {
            // SAFETY: from `instantiate`, destroyed once.
            unsafe { f(self.exec) };
        }
    }
}

/// `ncclResult_t` names, from nccl.h.
pub fn nccl_result_name(code: i32) -> &'static str {
    match code {
        0 => "ncclSuccess",
        1 => "ncclUnhandledCudaError",
        2 => "ncclSystemError",
        3 => "ncclInternalError",
        4 => "ncclInvalidArgument",
        5 => "ncclInvalidUsage",
        6 => "ncclRemoteError",
        7 => "ncclInProgress",
        _ => "ncclUnrecognizedResult",
    }
}

/// `ncclDataType_t` ncclFloat32 and `ncclRedOp_t` ncclSum (nccl.h).
const NCCL_FLOAT32: c_int = 7;
const NCCL_SUM: c_int = 0;

/// NCCL (`libnccl.so.2`) loaded from an explicit path: the copy a PyTorch wheel ships
/// (`nvidia/nccl/lib`) or the system's.
pub struct Nccl {
    lib: libloading::Library,
}

/// The communicators of `ncclCommInitAll`, one per device, destroyed on drop.
pub struct Communicators<'n> {
    nccl: &'n Nccl,
    comms: Vec<*mut c_void>,
}

impl Nccl {
    pub fn load(path: &std::path::Path) -> Result<Nccl, String> {
        // SAFETY: loading runs the library's initialisers; this is a probe worker, whose
        // purpose is to survive or die on exactly that.
        match unsafe { libloading::Library::new(path) } {
            Ok(lib) => Ok(Nccl { lib }),
            Err(e) => Err(error_chain(&e)),
        }
    }

    fn sym<F: Copy>(&self, name: &str) -> CuResult<F> {
        // SAFETY: every caller names the C signature of `name` from nccl.h as `F`, with
        // enums and `ncclResult_t` as `c_int`.
        match unsafe { self.lib.get::<F>(name) } {
            Ok(s) => Ok(*s),
            Err(e) => Err(CuError::MissingSymbol(format!("{name}: {e}"))),
        }
    }

    /// `ncclGetVersion`, e.g. 22005 for 2.20.5 (NCCL_VERSION_CODE).
    pub fn version(&self) -> CuResult<i32> {
        type F = unsafe extern "C" fn(*mut c_int) -> c_int;
        let f = self.sym::<F>("ncclGetVersion")?;
        let mut v: c_int = 0;
        // SAFETY: out-pointer to a live local.
        check("ncclGetVersion", unsafe { f(&mut v) })?;
        Ok(v)
    }

    /// `ncclGetErrorString`.
    pub fn error_string(&self, code: i32) -> Option<String> {
        type F = unsafe extern "C" fn(c_int) -> *const c_char;
        let f = self.sym::<F>("ncclGetErrorString").ok()?;
        // SAFETY: takes the code by value; returns a static string or NULL.
        let text = unsafe { f(code) };
        if text.is_null() {
            return None;
        }
        // SAFETY: a NUL-terminated static string.
        Some(
            unsafe { CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned(),
        )
    }

    /// `ncclCommInitAll` over these CUDA ordinals (one process, one communicator each).
    pub fn init_all(&self, ordinals: &[i32]) -> CuResult<Communicators<'_>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, c_int, *const c_int) -> c_int;
        let f = self.sym::<F>("ncclCommInitAll")?;
        let n = c_int::try_from(ordinals.len()).map_err(|_| CuError::Code {
            call: "ncclCommInitAll",
            code: 4,
        })?;
        let mut comms: Vec<*mut c_void> = vec![std::ptr::null_mut(); ordinals.len()];
        // SAFETY: `comms` has room for `n` handles; `ordinals` holds `n` ints.
        check("ncclCommInitAll", unsafe {
            f(comms.as_mut_ptr(), n, ordinals.as_ptr())
        })?;
        Ok(Communicators { nccl: self, comms })
    }
}

impl Communicators<'_> {
    /// One float32 sum all-reduce of `count` elements per rank, every rank in one group
    /// (ncclGroupStart / ncclGroupEnd, as one thread driving several GPUs must). Queued
    /// on each rank's stream: not waited for.
    pub fn all_reduce_sum_f32(
        &self,
        send: &[&DeviceMemory<'_>],
        recv: &[&DeviceMemory<'_>],
        count: usize,
        streams: &[&Stream<'_>],
    ) -> CuResult<()> {
        type Group = unsafe extern "C" fn() -> c_int;
        type AllReduce = unsafe extern "C" fn(
            *const c_void,
            *mut c_void,
            usize,
            c_int,
            c_int,
            *mut c_void,
            *mut c_void,
        ) -> c_int;
        let start = self.nccl.sym::<Group>("ncclGroupStart")?;
        let end = self.nccl.sym::<Group>("ncclGroupEnd")?;
        let all_reduce = self.nccl.sym::<AllReduce>("ncclAllReduce")?;
        let ranks = self.comms.len();
        if send.len() != ranks || recv.len() != ranks || streams.len() != ranks {
            return Err(CuError::Code {
                call: "ncclAllReduce",
                code: 4,
            });
        }
        if send.iter().chain(recv).any(|m| m.bytes < count * 4) {
            return Err(CuError::Code {
                call: "ncclAllReduce",
                code: 4,
            });
        }
        // SAFETY: no arguments.
        check("ncclGroupStart", unsafe { start() })?;
        let mut first_error = Ok(());
        for r in 0..ranks {
            // SAFETY: the buffers hold `count` floats (checked above) and live past the
            // caller's synchronisation; the communicator and stream are live.
            let rc = unsafe {
                all_reduce(
                    send[r].ptr as *const c_void,
                    recv[r].ptr as *mut c_void,
                    count,
                    NCCL_FLOAT32,
                    NCCL_SUM,
                    self.comms[r],
                    streams[r].stream,
                )
            };
            if first_error.is_ok() {
                first_error = check("ncclAllReduce", rc);
            }
        }
        // The group is ended whatever happened inside it.
        // SAFETY: no arguments.
        let ended = check("ncclGroupEnd", unsafe { end() });
        first_error.and(ended)
    }

    /// `ncclCommGetAsyncError` of rank `r`: an error a communicator met after its call
    /// returned (0 when none).
    pub fn async_error(&self, r: usize) -> CuResult<i32> {
        type F = unsafe extern "C" fn(*mut c_void, *mut c_int) -> c_int;
        let f = self.nccl.sym::<F>("ncclCommGetAsyncError")?;
        let Some(comm) = self.comms.get(r) else {
            return Ok(0);
        };
        let mut code: c_int = 0;
        // SAFETY: a live communicator; out-pointer to a live local.
        check("ncclCommGetAsyncError", unsafe { f(*comm, &mut code) })?;
        Ok(code)
    }
}

impl Drop for Communicators<'_> {
    fn drop(&mut self) {
        type F = unsafe extern "C" fn(*mut c_void) -> c_int;
        if let Ok(f) = self.nccl.sym::<F>("ncclCommDestroy") {
            for comm in self.comms.drain(..).filter(|c| !c.is_null()) {
                // SAFETY: created by ncclCommInitAll, destroyed once.
                unsafe { f(comm) };
            }
        }
    }
}

/// `cudaDataType_t` and `cublasComputeType_t` values, from library_types.h and
/// cublas_api.h.
pub mod lt {
    pub const CUDA_R_32F: i32 = 0;
    pub const CUDA_R_16F: i32 = 2;
    pub const CUDA_R_16BF: i32 = 14;
    pub const CUDA_R_8F_E4M3: i32 = 28;
    pub const CUBLAS_COMPUTE_32F: i32 = 68;
    pub const CUBLASLT_MATMUL_DESC_TRANSA: i32 = 3;
    pub const CUBLAS_OP_T: i32 = 1;
    pub const CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: i32 = 1;
    /// `cublasStatus_t` returned when the heuristic offers no algorithm.
    pub const CUBLAS_STATUS_NOT_SUPPORTED: i32 = 15;
    /// What `cublasLtCreate` returns when the driver is too old for the library.
    pub const CUBLAS_STATUS_NOT_INITIALIZED: i32 = 1;
}

/// `cublasLtMatmulHeuristicResult_t` (cublasLt.h, unchanged since CUDA 10.1).
#[repr(C)]
#[derive(Clone, Copy)]
struct HeuristicResult {
    algo: [u64; 8],
    workspace_size: usize,
    state: c_int,
    waves_count: f32,
    reserved: [c_int; 4],
}

/// One matmul D = A·B (+0·C), column-major, A m×k (stored k×m when transposed).
#[derive(Debug, Clone, Copy)]
pub struct MatmulSpec {
    pub input_type: i32,
    pub output_type: i32,
    pub transpose_a: bool,
    pub m: u64,
    pub n: u64,
    pub k: u64,
}

/// What the heuristic chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulChoice {
    pub workspace_bytes: u64,
}

/// A cuBLASLt library loaded from an explicit path (a wheel's or a toolkit's), so the
/// probe exercises exactly the copy a PyTorch build would use.
pub struct CublasLt {
    lib: libloading::Library,
}

impl CublasLt {
    pub fn load(path: &std::path::Path) -> Result<CublasLt, String> {
        // SAFETY: loading runs the library's initialisers; this is a probe worker, whose
        // purpose is to survive or die on exactly that.
        match unsafe { libloading::Library::new(path) } {
            Ok(lib) => Ok(CublasLt { lib }),
            Err(e) => Err(error_chain(&e)),
        }
    }

    fn sym<F: Copy>(&self, name: &str) -> CuResult<F> {
        // SAFETY: every caller names the C signature of `name` from cublasLt.h as `F`,
        // with enums and `cublasStatus_t` as `c_int`.
        match unsafe { self.lib.get::<F>(name) } {
            Ok(s) => Ok(*s),
            Err(e) => Err(CuError::MissingSymbol(format!("{name}: {e}"))),
        }
    }

    /// `cublasLtGetVersion`, e.g. 120403 for 12.4.3.
    pub fn version(&self) -> CuResult<usize> {
        type F = unsafe extern "C" fn() -> usize;
        let f = self.sym::<F>("cublasLtGetVersion")?;
        // SAFETY: no arguments.
        Ok(unsafe { f() })
    }

    /// Asks the heuristic for one algorithm within `workspace_limit` bytes and runs it.
    /// Device buffers must hold the sizes `spec` implies.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul(
        &self,
        spec: MatmulSpec,
        a: &DeviceMemory<'_>,
        b: &DeviceMemory<'_>,
        d: &DeviceMemory<'_>,
        workspace: Option<&DeviceMemory<'_>>,
        stream: &Stream<'_>,
        on_choice: &mut dyn FnMut(MatmulChoice),
    ) -> CuResult<()> {
        type Create = unsafe extern "C" fn(*mut *mut c_void) -> c_int;
        type Destroy = unsafe extern "C" fn(*mut c_void) -> c_int;
        type DescCreate = unsafe extern "C" fn(*mut *mut c_void, c_int, c_int) -> c_int;
        type SetAttr = unsafe extern "C" fn(*mut c_void, c_int, *const c_void, usize) -> c_int;
        type LayoutCreate = unsafe extern "C" fn(*mut *mut c_void, c_int, u64, u64, i64) -> c_int;
        type Heuristic = unsafe extern "C" fn(
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            c_int,
            *mut HeuristicResult,
            *mut c_int,
        ) -> c_int;
        type Matmul = unsafe extern "C" fn(
            *mut c_void,
            *mut c_void,
            *const c_void,
            *const c_void,
            *mut c_void,
            *const c_void,
            *mut c_void,
            *const c_void,
            *const c_void,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *const c_void,
            *mut c_void,
            usize,
            *mut c_void,
        ) -> c_int;

        // Every handle made below is destroyed by this guard, whatever step fails.
        struct Handles<'l> {
            lt: &'l CublasLt,
            handle: *mut c_void,
            desc: *mut c_void,
            pref: *mut c_void,
            layouts: Vec<*mut c_void>,
        }
        impl Drop for Handles<'_> {
            fn drop(&mut self) {
                let destroy = |name: &str, p: *mut c_void| {
                    if !p.is_null() {
                        if let Ok(f) = self.lt.sym::<Destroy>(name) {
                            // SAFETY: `p` was created by the matching create call.
                            unsafe { f(p) };
                        }
                    }
                };
                for l in &self.layouts {
                    destroy("cublasLtMatrixLayoutDestroy", *l);
                }
                destroy("cublasLtMatmulPreferenceDestroy", self.pref);
                destroy("cublasLtMatmulDescDestroy", self.desc);
                destroy("cublasLtDestroy", self.handle);
            }
        }
        let mut h = Handles {
            lt: self,
            handle: std::ptr::null_mut(),
            desc: std::ptr::null_mut(),
            pref: std::ptr::null_mut(),
            layouts: Vec::new(),
        };
        let create = self.sym::<Create>("cublasLtCreate")?;
        // SAFETY: out-pointer to a live field.
        check("cublasLtCreate", unsafe { create(&mut h.handle) })?;
        let desc_create = self.sym::<DescCreate>("cublasLtMatmulDescCreate")?;
        // SAFETY: out-pointer to a live field; enum values from the headers.
        check("cublasLtMatmulDescCreate", unsafe {
            desc_create(&mut h.desc, lt::CUBLAS_COMPUTE_32F, lt::CUDA_R_32F)
        })?;
        if spec.transpose_a {
            let set = self.sym::<SetAttr>("cublasLtMatmulDescSetAttribute")?;
            let op: c_int = lt::CUBLAS_OP_T;
            // SAFETY: the attribute is a cublasOperation_t (int) read from a live local.
            check("cublasLtMatmulDescSetAttribute", unsafe {
                set(
                    h.desc,
                    lt::CUBLASLT_MATMUL_DESC_TRANSA,
                    std::ptr::from_ref(&op).cast(),
                    std::mem::size_of::<c_int>(),
                )
            })?;
        }
        let layout_create = self.sym::<LayoutCreate>("cublasLtMatrixLayoutCreate")?;
        let (a_rows, a_cols) = if spec.transpose_a {
            (spec.k, spec.m)
        } else {
            (spec.m, spec.k)
        };
        let shapes = [
            (spec.input_type, a_rows, a_cols),
            (spec.input_type, spec.k, spec.n),
            (spec.output_type, spec.m, spec.n),
            (spec.output_type, spec.m, spec.n),
        ];
        for (ty, rows, cols) in shapes {
            let mut layout: *mut c_void = std::ptr::null_mut();
            let ld = i64::try_from(rows).unwrap_or(i64::MAX);
            // SAFETY: out-pointer to a live local.
            check("cublasLtMatrixLayoutCreate", unsafe {
                layout_create(&mut layout, ty, rows, cols, ld)
            })?;
            h.layouts.push(layout);
        }
        let pref_create = self.sym::<Create>("cublasLtMatmulPreferenceCreate")?;
        // SAFETY: out-pointer to a live field.
        check("cublasLtMatmulPreferenceCreate", unsafe {
            pref_create(&mut h.pref)
        })?;
        let workspace_limit: u64 = workspace.map_or(0, |w| w.bytes() as u64);
        let pref_set = self.sym::<SetAttr>("cublasLtMatmulPreferenceSetAttribute")?;
        // SAFETY: the attribute is a uint64_t read from a live local.
        check("cublasLtMatmulPreferenceSetAttribute", unsafe {
            pref_set(
                h.pref,
                lt::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                std::ptr::from_ref(&workspace_limit).cast(),
                std::mem::size_of::<u64>(),
            )
        })?;
        let heuristic = self.sym::<Heuristic>("cublasLtMatmulAlgoGetHeuristic")?;
        let mut result = HeuristicResult {
            algo: [0; 8],
            workspace_size: 0,
            state: 0,
            waves_count: 0.0,
            reserved: [0; 4],
        };
        let mut returned: c_int = 0;
        let l = &h.layouts;
        // SAFETY: live handles; room for the one result requested.
        check("cublasLtMatmulAlgoGetHeuristic", unsafe {
            heuristic(
                h.handle,
                h.desc,
                l[0],
                l[1],
                l[2],
                l[3],
                h.pref,
                1,
                &mut result,
                &mut returned,
            )
        })?;
        if returned < 1 {
            return Err(CuError::Code {
                call: "cublasLtMatmulAlgoGetHeuristic",
                code: lt::CUBLAS_STATUS_NOT_SUPPORTED,
            });
        }
        check(
            "cublasLtMatmulAlgoGetHeuristic (algorithm state)",
            result.state,
        )?;
        on_choice(MatmulChoice {
            workspace_bytes: result.workspace_size as u64,
        });
        let matmul = self.sym::<Matmul>("cublasLtMatmul")?;
        let alpha: f32 = 1.0;
        let beta: f32 = 0.0;
        let dev = |p: u64| p as usize as *const c_void;
        let (ws_ptr, ws_bytes) = workspace.map_or((std::ptr::null_mut(), 0), |w| {
            (w.ptr() as usize as *mut c_void, w.bytes())
        });
        // SAFETY: device buffers sized for the layouts; scalars are f32 (scale type 32F)
        // read from live locals; the algorithm came from the heuristic above.
        check("cublasLtMatmul", unsafe {
            matmul(
                h.handle,
                h.desc,
                std::ptr::from_ref(&alpha).cast(),
                dev(a.ptr()),
                l[0],
                dev(b.ptr()),
                l[1],
                std::ptr::from_ref(&beta).cast(),
                dev(d.ptr()),
                l[2],
                d.ptr() as usize as *mut c_void,
                l[3],
                std::ptr::from_ref(&result.algo).cast(),
                ws_ptr,
                ws_bytes,
                stream.stream,
            )
        })?;
        stream.synchronize()
    }
}

/// NVML calls that nvml-wrapper makes with the wrong struct size or not at all: the
/// compute-process lists (drivers 535.43.02–535.86.05 write a 32-byte
/// `nvmlProcessInfo_t` from `nvmlDeviceGetComputeRunningProcesses_v3`, every other
/// driver 24 bytes; before R510 only `_v2` and the 16-byte v1 exist) and the v1 memory
/// info of drivers without `nvmlDeviceGetMemoryInfo_v2`.
pub mod nvml_raw {
    use std::ffi::c_uint;

    /// `nvmlReturn_t` values used here.
    pub const NVML_SUCCESS: u32 = 0;
    pub const NVML_ERROR_INSUFFICIENT_SIZE: u32 = 7;
    /// `NVML_VALUE_NOT_AVAILABLE` in a process's used memory.
    const VALUE_NOT_AVAILABLE: u64 = u64::MAX;

    /// Which entry point, with the size of the struct it writes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ProcessCall {
        /// `nvmlDeviceGetComputeRunningProcesses_v3`; 24 or 32 bytes per entry.
        V3 { stride: usize },
        /// `nvmlDeviceGetComputeRunningProcesses_v2` (R470): 24 bytes.
        V2,
        /// `nvmlDeviceGetComputeRunningProcesses`: 16 bytes.
        V1,
    }

    impl ProcessCall {
        pub fn name(self) -> &'static str {
            match self {
                ProcessCall::V3 { .. } => "nvmlDeviceGetComputeRunningProcesses_v3",
                ProcessCall::V2 => "nvmlDeviceGetComputeRunningProcesses_v2",
                ProcessCall::V1 => "nvmlDeviceGetComputeRunningProcesses",
            }
        }

        fn stride(self) -> usize {
            match self {
                ProcessCall::V3 { stride } => stride,
                ProcessCall::V2 => 24,
                ProcessCall::V1 => 16,
            }
        }
    }

    /// The struct size `_v3` writes on this driver version ("535.54.03").
    pub fn v3_stride(driver_version: &str) -> usize {
        let parts: Vec<u32> = driver_version
            .trim()
            .split('.')
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        let v = (
            parts.first().copied().unwrap_or(0),
            parts.get(1).copied().unwrap_or(0),
            parts.get(2).copied().unwrap_or(0),
        );
        if ((535, 43, 2)..=(535, 86, 5)).contains(&v) {
            32
        } else {
            24
        }
    }

    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum ProcessError {
        /// The library lacks the entry point.
        Missing,
        /// The call returned this `nvmlReturn_t`.
        Code(u32),
        /// The driver reported more processes than `max`.
        TooMany(u32),
    }

    /// (pid, used bytes when known) of each compute process, at most `max` of them.
    pub fn compute_processes(
        device: &nvml_wrapper::Device<'_>,
        call: ProcessCall,
        max: u32,
    ) -> Result<Vec<(u32, Option<u64>)>, ProcessError> {
        let lib = device.nvml().lib();
        // SAFETY: the handle is only passed to NVML calls on this device's library.
        let handle = unsafe { device.handle() };
        type F = unsafe extern "C" fn(*mut std::ffi::c_void, *mut c_uint, *mut u64) -> u32;
        // SAFETY: the three entry points share this C signature (device handle, count in
        // and out, entry buffer), returning nvmlReturn_t.
        let f = unsafe { lib.__library.get::<F>(call.name().as_bytes()) }
            .map_err(|_| ProcessError::Missing)?;
        let raw = |count: &mut c_uint, buf: *mut u64| -> u32 {
            // SAFETY: `buf` is NULL with `*count` 0, or holds `*count` entries of the size
            // `call` writes (whole u64 words, so aligned for every layout); the handle is
            // this library's.
            unsafe { f(handle.cast(), count, buf) }
        };
        let mut count: c_uint = 0;
        match raw(&mut count, std::ptr::null_mut()) {
            NVML_SUCCESS => return Ok(Vec::new()),
            NVML_ERROR_INSUFFICIENT_SIZE => {}
            rc => return Err(ProcessError::Code(rc)),
        }
        if count > max {
            return Err(ProcessError::TooMany(count));
        }
        // Room for processes that start between the two calls.
        let room = count.saturating_add(8);
        let words = call.stride() / 8;
        let mut buf = vec![0u64; room as usize * words];
        let mut count = room;
        match raw(&mut count, buf.as_mut_ptr()) {
            NVML_SUCCESS => {}
            rc => return Err(ProcessError::Code(rc)),
        }
        let n = (count.min(room)) as usize;
        Ok(buf
            .chunks_exact(words)
            .take(n)
            .map(|e| {
                // pid is the first 32-bit field (little-endian low half of word 0);
                // usedGpuMemory the u64 at offset 8 in every layout.
                let pid = (e[0] & 0xffff_ffff) as u32;
                let used = (e[1] != VALUE_NOT_AVAILABLE).then_some(e[1]);
                (pid, used)
            })
            .collect())
    }

    /// `nvmlGpuFabricInfo_t` / `nvmlGpuFabricInfo_v2_t` as read here.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct FabricInfo {
        pub cluster_uuid: [u8; 16],
        /// nvmlReturn_t of the registration.
        pub status: u32,
        pub clique_id: u32,
        /// nvmlGpuFabricState_t.
        pub state: u8,
        /// `healthMask` of the v2 struct (R550+); `None` from the v1 call, which has none.
        pub health_mask: Option<u32>,
    }

    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum FabricError {
        /// Neither entry point is in the library.
        Missing,
        /// `call` returned this nvmlReturn_t.
        Code { call: &'static str, code: u32 },
    }

    /// NVML_ERROR_ARGUMENT_VERSION_MISMATCH: a versioned struct the driver does not know.
    const NVML_ERROR_ARGUMENT_VERSION_MISMATCH: u32 = 25;

    /// `nvmlGpuFabricInfo_v2_t` of nvml.h (R550+): version, clusterUuid[16], status,
    /// cliqueId, state (unsigned char), healthMask.
    #[repr(C)]
    struct FabricInfoV2 {
        version: c_uint,
        cluster_uuid: [u8; 16],
        status: u32,
        clique_id: c_uint,
        state: u8,
        health_mask: c_uint,
    }

    /// `nvmlGpuFabricInfo_t` of nvml.h (R530+).
    #[repr(C)]
    struct FabricInfoV1 {
        cluster_uuid: [u8; 16],
        status: u32,
        clique_id: c_uint,
        state: u8,
    }

    /// NVML_STRUCT_VERSION(GpuFabricInfo, 2): sizeof | 2 << 24.
    #[allow(clippy::cast_possible_truncation)]
    const FABRIC_INFO_V2: c_uint = std::mem::size_of::<FabricInfoV2>() as c_uint | (2 << 24);

    /// The version word passed in the v2 struct (tests).
    pub fn fabric_info_v2_version() -> c_uint {
        FABRIC_INFO_V2
    }

    /// The GPU's fabric state: `nvmlDeviceGetGpuFabricInfoV` with the v2 struct, else (a
    /// driver without it, or one that refuses the version) `nvmlDeviceGetGpuFabricInfo`.
    /// Both through the library nvml-wrapper loaded.
    pub fn gpu_fabric_info(device: &nvml_wrapper::Device<'_>) -> Result<FabricInfo, FabricError> {
        let lib = device.nvml().lib();
        // SAFETY: the handle is only passed to NVML calls on this device's library.
        let handle = unsafe { device.handle() };
        type F = unsafe extern "C" fn(*mut std::ffi::c_void, *mut std::ffi::c_void) -> u32;
        // SAFETY: nvmlDeviceGetGpuFabricInfoV(nvmlDevice_t, nvmlGpuFabricInfoV_t *).
        if let Ok(f) = unsafe { lib.__library.get::<F>(b"nvmlDeviceGetGpuFabricInfoV") } {
            let mut info = FabricInfoV2 {
                version: FABRIC_INFO_V2,
                cluster_uuid: [0; 16],
                status: 0,
                clique_id: 0,
                state: 0,
                health_mask: 0,
            };
            // SAFETY: `info` is a v2 struct whose version field says so; the handle is
            // this library's.
            let rc = unsafe { f(handle.cast(), std::ptr::addr_of_mut!(info).cast()) };
            match rc {
                NVML_SUCCESS => {
                    return Ok(FabricInfo {
                        cluster_uuid: info.cluster_uuid,
                        status: info.status,
                        clique_id: info.clique_id,
                        state: info.state,
                        health_mask: Some(info.health_mask),
                    });
                }
                NVML_ERROR_ARGUMENT_VERSION_MISMATCH => {}
                code => {
                    return Err(FabricError::Code {
                        call: "nvmlDeviceGetGpuFabricInfoV",
                        code,
                    })
                }
            }
        }
        // SAFETY: nvmlDeviceGetGpuFabricInfo(nvmlDevice_t, nvmlGpuFabricInfo_t *).
        let f = unsafe { lib.__library.get::<F>(b"nvmlDeviceGetGpuFabricInfo") }
            .map_err(|_| FabricError::Missing)?;
        let mut info = FabricInfoV1 {
            cluster_uuid: [0; 16],
            status: 0,
            clique_id: 0,
            state: 0,
        };
        // SAFETY: `info` is the v1 struct the call writes; the handle is this library's.
        let rc = unsafe { f(handle.cast(), std::ptr::addr_of_mut!(info).cast()) };
        if rc != NVML_SUCCESS {
            return Err(FabricError::Code {
                call: "nvmlDeviceGetGpuFabricInfo",
                code: rc,
            });
        }
        Ok(FabricInfo {
            cluster_uuid: info.cluster_uuid,
            status: info.status,
            clique_id: info.clique_id,
            state: info.state,
            health_mask: None,
        })
    }

    /// `nvmlDeviceGetMemoryInfo` (v1): (total, free, used) bytes.
    pub fn memory_info_v1(
        device: &nvml_wrapper::Device<'_>,
    ) -> Result<(u64, u64, u64), ProcessError> {
        let lib = device.nvml().lib();
        type F = unsafe extern "C" fn(*mut std::ffi::c_void, *mut u64) -> u32;
        // SAFETY: nvmlDeviceGetMemoryInfo(nvmlDevice_t, nvmlMemory_t *) from nvml.h.
        let f = unsafe { lib.__library.get::<F>(b"nvmlDeviceGetMemoryInfo") }
            .map_err(|_| ProcessError::Missing)?;
        let mut words = [0u64; 3];
        // SAFETY: nvmlMemory_t is { total, free, used: unsigned long long }; the handle
        // is this library's.
        let rc = unsafe { f(device.handle().cast(), words.as_mut_ptr()) };
        if rc != NVML_SUCCESS {
            return Err(ProcessError::Code(rc));
        }
        Ok((words[0], words[1], words[2]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_driver_soname_is_tried_before_the_unversioned_name() {
        assert_eq!(CUDA_LIBRARY_NAMES, ["libcuda.so.1", "libcuda.so"]);
    }

    #[test]
    fn the_535_process_struct_is_32_bytes_only_on_its_drivers() {
        assert_eq!(nvml_raw::v3_stride("535.43.02"), 32);
        assert_eq!(nvml_raw::v3_stride("535.54.03"), 32);
        assert_eq!(nvml_raw::v3_stride("535.86.05"), 32);
        assert_eq!(nvml_raw::v3_stride("535.86.10"), 24);
        assert_eq!(nvml_raw::v3_stride("535.43.01"), 24);
        assert_eq!(nvml_raw::v3_stride("535.104.05"), 24);
        assert_eq!(nvml_raw::v3_stride("550.54.15"), 24);
        assert_eq!(nvml_raw::v3_stride("garbage"), 24);
    }

    #[test]
    fn fabric_info_structs_have_the_nvml_h_layout() {
        // nvmlGpuFabricInfo_v2_t: 4 + 16 + 4 + 4 + 1 (+3 padding) + 4 = 36 bytes.
        assert_eq!(nvml_raw::fabric_info_v2_version(), 36 | (2 << 24));
    }

    #[test]
    fn error_chains_keep_the_cause() {
        let inner = std::io::Error::other("cannot open shared object file");
        let outer = std::io::Error::new(std::io::ErrorKind::NotFound, inner);
        assert!(error_chain(&outer).contains("cannot open shared object file"));
    }
}
