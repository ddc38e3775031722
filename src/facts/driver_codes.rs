//! The driver libraries' return codes, decoded: a `ReturnCode` (name and number), and a
//! failed NVML call turned into a fact. Shared by the NVML and CUDA fact gatherers.

use nvml_wrapper::error::NvmlError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;

/// A library's return code, by its enum name and number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReturnCode {
    /// e.g. "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "CUDA_ERROR_SYSTEM_NOT_READY", "CUDA_SUCCESS".
    pub name: String,
    /// e.g. 18, 802, 0.
    pub code: i64,
    /// The library's own description, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `nvmlReturn_t` names and numbers, from nvml.h (identical in nvml-wrapper-sys 0.10).
const NVML_RETURN_CODES: &[(u32, &str)] = &[
    (0, "NVML_SUCCESS"),
    (1, "NVML_ERROR_UNINITIALIZED"),
    (2, "NVML_ERROR_INVALID_ARGUMENT"),
    (3, "NVML_ERROR_NOT_SUPPORTED"),
    (4, "NVML_ERROR_NO_PERMISSION"),
    (5, "NVML_ERROR_ALREADY_INITIALIZED"),
    (6, "NVML_ERROR_NOT_FOUND"),
    (7, "NVML_ERROR_INSUFFICIENT_SIZE"),
    (8, "NVML_ERROR_INSUFFICIENT_POWER"),
    (9, "NVML_ERROR_DRIVER_NOT_LOADED"),
    (10, "NVML_ERROR_TIMEOUT"),
    (11, "NVML_ERROR_IRQ_ISSUE"),
    (12, "NVML_ERROR_LIBRARY_NOT_FOUND"),
    (13, "NVML_ERROR_FUNCTION_NOT_FOUND"),
    (14, "NVML_ERROR_CORRUPTED_INFOROM"),
    (15, "NVML_ERROR_GPU_IS_LOST"),
    (16, "NVML_ERROR_RESET_REQUIRED"),
    (17, "NVML_ERROR_OPERATING_SYSTEM"),
    (18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"),
    (19, "NVML_ERROR_IN_USE"),
    (20, "NVML_ERROR_MEMORY"),
    (21, "NVML_ERROR_NO_DATA"),
    (22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED"),
    (23, "NVML_ERROR_INSUFFICIENT_RESOURCES"),
    (24, "NVML_ERROR_FREQ_NOT_SUPPORTED"),
    (25, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH"),
    (26, "NVML_ERROR_DEPRECATED"),
    (27, "NVML_ERROR_NOT_READY"),
    (28, "NVML_ERROR_GPU_NOT_FOUND"),
    (29, "NVML_ERROR_INVALID_STATE"),
    (30, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED"),
    (999, "NVML_ERROR_UNKNOWN"),
];

const NVML_NOT_SUPPORTED: u32 = 3;
const NVML_FUNCTION_NOT_FOUND: u32 = 13;

pub fn nvml_return_code(code: u32) -> ReturnCode {
    let name = NVML_RETURN_CODES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or("NVML_UNRECOGNIZED_RETURN", |(_, n)| n);
    ReturnCode {
        name: name.to_string(),
        code: i64::from(code),
        message: None,
    }
}

/// The `nvmlReturn_t` behind an nvml-wrapper error; `None` for the wrapper's own errors
/// (bad UTF-8 and the like), which carry no code.
#[allow(deprecated)]
pub fn nvml_error_code(e: &NvmlError) -> Option<u32> {
    use NvmlError as E;
    let code = match e {
        E::Uninitialized => 1,
        E::InvalidArg => 2,
        E::NotSupported => 3,
        E::NoPermission => 4,
        E::AlreadyInitialized => 5,
        E::NotFound => 6,
        E::InsufficientSize(_) => 7,
        E::InsufficientPower => 8,
        E::DriverNotLoaded => 9,
        E::Timeout => 10,
        E::IrqIssue => 11,
        E::LibraryNotFound => 12,
        E::FunctionNotFound => 13,
        E::CorruptedInfoROM => 14,
        E::GpuLost => 15,
        E::ResetRequired => 16,
        E::OperatingSystem => 17,
        E::LibRmVersionMismatch => 18,
        E::InUse => 19,
        E::InsufficientMemory => 20,
        E::NoData => 21,
        E::VgpuEccNotSupported => 22,
        E::Unknown => 999,
        E::UnexpectedVariant(code) => *code,
        _ => return None,
    };
    Some(code)
}

/// A failed NVML call as a fact: "this GPU or driver does not offer it" is Unsupported,
/// anything else Failed with the code's name.
pub fn nvml_error_fact<U>(call: &str, e: &NvmlError) -> Fact<U> {
    if let NvmlError::FailedToLoadSymbol(detail) = e {
        return Fact::unsupported(format!(
            "{call} is not in this libnvidia-ml (older driver): {detail}"
        ));
    }
    match nvml_error_code(e) {
        Some(code @ (NVML_NOT_SUPPORTED | NVML_FUNCTION_NOT_FOUND)) => {
            Fact::unsupported(format!("{call}: {}", describe_nvml(code)))
        }
        Some(code) => Fact::failed(format!("{call}: {}", describe_nvml(code))),
        None => Fact::failed(format!("{call}: {e}")),
    }
}

pub fn describe_nvml(code: u32) -> String {
    format!("{} ({code})", nvml_return_code(code).name)
}

pub fn nvml_fact<T>(call: &str, result: Result<T, NvmlError>) -> Fact<T> {
    match result {
        Ok(value) => Fact::known(value),
        Err(e) => nvml_error_fact(call, &e),
    }
}
