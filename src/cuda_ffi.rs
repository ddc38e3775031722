//! The only module allowed `unsafe`: calls into the CUDA driver through cudarc.
//!
//! Everything here runs in the driver worker process, never in the doctor itself: a
//! broken driver may crash or hang, and cudarc panics when libcuda cannot be loaded.
//!
//! The entry points are called through signatures that return a plain `i32`, not
//! cudarc's `CUresult`: that is a Rust enum, and a driver newer (or stranger) than the
//! bindings can return a code outside it, which would be undefined behaviour the moment
//! the value is produced. The symbols come from cudarc's own loaded library handle, so
//! later cudarc work in this process talks to the same libcuda.
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
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 75;
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 76;
    pub const MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: i32 = 81;
    pub const MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: i32 = 97;
}

/// libcuda as cudarc loaded it.
pub struct CudaDriver {
    lib: &'static libloading::Library,
    /// The name that loaded, in cudarc's search order (e.g. "libcuda.so").
    pub loaded_name: String,
}

/// Loads libcuda the way cudarc does, without its panic when nothing loads.
/// `Err` lists every name tried and the loader's last complaint.
pub fn load_cuda() -> Result<CudaDriver, String> {
    let mut candidates = cudarc::get_lib_name_candidates("cuda");
    dedup_keep_order(&mut candidates);
    let mut last_error = String::new();
    for name in &candidates {
        // SAFETY: loading runs the library's initialisers; this is the worker process,
        // whose whole purpose is to survive or die on exactly that.
        match unsafe { libloading::Library::new(name.as_str()) } {
            Ok(probe) => {
                // SAFETY: a candidate loaded, so cudarc's identical search cannot panic;
                // it keeps its handle for the life of the process. The probe is held
                // until then so the library is not unloaded and loaded again.
                let lib = unsafe { cudarc::driver::sys::culib() };
                drop(probe);
                return Ok(CudaDriver {
                    lib,
                    loaded_name: name.clone(),
                });
            }
            Err(e) => last_error = error_chain(&e),
        }
    }
    Err(format!(
        "none of {} loaded (last error: {last_error})",
        candidates.join(", ")
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

fn dedup_keep_order(names: &mut Vec<String>) {
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(n.clone()));
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

    /// The 16 UUID bytes (`cuDeviceGetUuid_v2`, which names MIG instances, else the
    /// older `cuDeviceGetUuid`).
    pub fn device_uuid(&self, dev: Device) -> CuResult<[u8; 16]> {
        type F = unsafe extern "C" fn(*mut [u8; 16], c_int) -> c_int;
        let (f, call) = match self.symbol::<F>("cuDeviceGetUuid_v2") {
            Ok(f) => (f, "cuDeviceGetUuid_v2"),
            Err(_) => (self.symbol::<F>("cuDeviceGetUuid")?, "cuDeviceGetUuid"),
        };
        let mut uuid = [0u8; 16];
        // SAFETY: CUuuid is `struct { char bytes[16]; }`; out-pointer to a live local.
        check(call, unsafe { f(&mut uuid, dev.0) })?;
        Ok(uuid)
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
        let context = Context { driver: self, dev };
        // SAFETY: `ctx` was just returned by the driver.
        check("cuCtxSetCurrent", unsafe { set_current(ctx) })?;
        Ok(context)
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

    /// `cuModuleLoadData` on PTX text (JIT-compiled by the driver).
    pub fn load_ptx(&self, ptx: &str) -> CuResult<Module<'_>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, *const c_void) -> c_int;
        let f = self.sym::<F>("cuModuleLoadData")?;
        let mut image = ptx.as_bytes().to_vec();
        image.push(0);
        let mut module: *mut c_void = std::ptr::null_mut();
        // SAFETY: the image is NUL-terminated PTX text that outlives the call.
        check("cuModuleLoadData", unsafe {
            f(&mut module, image.as_ptr().cast())
        })?;
        Ok(Module { ctx: self, module })
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
        Ok(PinnedMemory {
            ctx: self,
            ptr: ptr.cast(),
            bytes,
        })
    }

    /// Copies host bytes to device memory (synchronous).
    pub fn copy_to_device(&self, dst: &DeviceMemory<'_>, src: &[u8]) -> CuResult<()> {
        type F = unsafe extern "C" fn(u64, *const c_void, usize) -> c_int;
        let f = self.sym::<F>("cuMemcpyHtoD_v2")?;
        let n = src.len().min(dst.bytes);
        // SAFETY: `src` is valid for `n` bytes and `dst` was allocated with at least `n`.
        check("cuMemcpyHtoD_v2", unsafe {
            f(dst.ptr, src.as_ptr().cast(), n)
        })
    }

    /// Copies device memory into host bytes (synchronous).
    pub fn copy_to_host(&self, dst: &mut [u8], src: &DeviceMemory<'_>) -> CuResult<()> {
        type F = unsafe extern "C" fn(*mut c_void, u64, usize) -> c_int;
        let f = self.sym::<F>("cuMemcpyDtoH_v2")?;
        let n = dst.len().min(src.bytes);
        // SAFETY: `dst` is valid for `n` bytes and `src` was allocated with at least `n`.
        check("cuMemcpyDtoH_v2", unsafe {
            f(dst.as_mut_ptr().cast(), src.ptr, n)
        })
    }

    /// `cuMemcpyDtoD_v2` of `min(len)` bytes.
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

    /// `cuMemsetD32_v2`: fills `count` 32-bit words.
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

    /// `cuStreamCreate` (non-blocking, so capture does not involve the legacy stream).
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
    /// `cuGraphInstantiateWithFlags` (CUDA 11.4+).
    pub fn instantiate(&self) -> CuResult<GraphExec<'c>> {
        type F = unsafe extern "C" fn(*mut *mut c_void, *mut c_void, u64) -> c_int;
        let f = self.ctx.sym::<F>("cuGraphInstantiateWithFlags")?;
        let mut exec: *mut c_void = std::ptr::null_mut();
        // SAFETY: a captured graph; out-pointer to a live local.
        check("cuGraphInstantiateWithFlags", unsafe {
            f(&mut exec, self.graph, 0)
        })?;
        Ok(GraphExec {
            ctx: self.ctx,
            exec,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_names_are_listed_once_in_order() {
        let mut names: Vec<String> = ["a", "b", "a", "c", "b"].map(String::from).into();
        dedup_keep_order(&mut names);
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn error_chains_keep_the_cause() {
        let inner = std::io::Error::other("cannot open shared object file");
        let outer = std::io::Error::new(std::io::ErrorKind::NotFound, inner);
        assert!(error_chain(&outer).contains("cannot open shared object file"));
    }
}
