//! `gpu-doctor grid`: the attention launch-size calculator.

use super::output::print;
use super::Settings;
use crate::cli::GridArgs;
use crate::error::AppError;
use crate::grid;
use crate::host::Host;
use crate::report::exit;

pub fn run(settings: &Settings, args: &GridArgs, host: &Host) -> Result<i32, AppError> {
    let spatial = match &args.spatial {
        Some(s) => grid::parse_spatial(s)
            .ok_or_else(|| AppError::Usage(format!("--spatial {s:?} is not HxW (e.g. 40x64)")))?,
        None => (1, 1),
    };
    let (max_grid, from) = match args.gpu {
        None => (grid::DEFAULT_MAX_GRID, "CUDA default".to_string()),
        Some(n) => {
            let facts = crate::facts::gather(host, &crate::facts::GatherOptions::default());
            match grid::max_grid_dims(&facts, n) {
                Some(dims) => (dims, format!("GPU {n}")),
                None => {
                    return Err(AppError::Usage(format!(
                        "--gpu {n}: cannot read the device's grid limits: {}",
                        grid::no_limit_reason(&facts, n)
                    )))
                }
            }
        }
    };
    let mut a = grid::compute(args.batch, args.heads, spatial, args.axis, max_grid);
    a.limit_from = from;
    let out = if settings.json {
        format!("{}\n", crate::report::safe_json::to_string_pretty(&a)?)
    } else {
        grid::text(&a)
    };
    let code = print(&out);
    Ok(if code != exit::OK {
        code
    } else if a.fits {
        exit::OK
    } else {
        grid::OVER_LIMIT
    })
}
