//! `gpu-doctor grid`: the launch-size arithmetic behind cudaErrorInvalidConfiguration in
//! attention. A fused attention kernel puts batch × heads on one grid axis (temporal
//! attention in video models folds the spatial map into the batch, so batch · h · w ·
//! heads); CUDA caps grid y and z at 65535 blocks and x at 2^31 − 1. The largest batch
//! chunk that fits is limit / (h · w · heads).

use serde::Serialize;

use crate::facts::Facts;

/// CUDA's maximum grid dimensions (x, y, z) on every GPU since compute capability 3.0.
/// The grid axis a launch's product lands on (`grid --axis`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GridAxis {
    X,
    Y,
    Z,
}

pub const DEFAULT_MAX_GRID: [u64; 3] = [2_147_483_647, 65_535, 65_535];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GridAnswer {
    /// Blocks the launch puts on the axis: batch · h · w · heads.
    pub blocks: u128,
    /// The axis' limit.
    pub limit: u64,
    pub fits: bool,
    /// The largest batch chunk whose launch fits (0: not even one item fits).
    pub max_chunk: u64,
    pub axis: String,
    /// Blocks per batch item: h · w · heads.
    pub per_item: u128,
    /// Chunks of `max_chunk` needed for the whole batch (0 when no chunk fits).
    pub chunks: u64,
    /// Where the limit came from: "CUDA default" or "GPU N".
    pub limit_from: String,
}

/// Parses "40x64" (also "40X64", "40*64", a single "2560").
pub fn parse_spatial(s: &str) -> Option<(u64, u64)> {
    let s = s.trim();
    let parts: Vec<&str> = s.split(['x', 'X', '*', '×']).map(str::trim).collect();
    match parts.as_slice() {
        [one] => Some((one.parse().ok()?, 1)),
        [h, w] => Some((h.parse().ok()?, w.parse().ok()?)),
        _ => None,
    }
}

pub fn compute(
    batch: u64,
    heads: u64,
    spatial: (u64, u64),
    axis: GridAxis,
    max_grid: [u64; 3],
) -> GridAnswer {
    let (idx, name) = match axis {
        GridAxis::X => (0, "x"),
        GridAxis::Y => (1, "y"),
        GridAxis::Z => (2, "z"),
    };
    let limit = max_grid[idx];
    let per_item = u128::from(spatial.0)
        .saturating_mul(u128::from(spatial.1))
        .saturating_mul(u128::from(heads));
    let blocks = per_item.saturating_mul(u128::from(batch));
    let max_chunk = u128::from(limit)
        .checked_div(per_item)
        .map_or(batch, |c| u64::try_from(c).unwrap_or(u64::MAX));
    let chunks = match max_chunk {
        0 => 0,
        c => batch.div_ceil(c),
    };
    GridAnswer {
        blocks,
        limit,
        fits: blocks <= u128::from(limit),
        max_chunk,
        axis: name.to_string(),
        per_item,
        chunks,
        limit_from: "CUDA default".to_string(),
    }
}

/// The maximum grid dimensions of GPU `gpu` (nvidia-smi's index, or the CUDA ordinal
/// when NVML did not see the GPU) from the CUDA device facts
/// (cuDeviceGetAttribute MAX_GRID_DIM_X/Y/Z).
pub fn max_grid_dims(facts: &Facts, gpu: u32) -> Option<[u64; 3]> {
    let devices = crate::checks::view::cuda_devices(facts);
    let dev = devices
        .iter()
        .find(|d| d.nvml_index == Some(gpu))
        .or_else(|| {
            devices
                .iter()
                .find(|d| d.nvml_index.is_none() && d.ordinal == gpu)
        })?;
    dev.max_grid.value().map(|g| g.map(u64::from))
}

/// Why `--gpu N` has no limit to read, for the error message.
pub fn no_limit_reason(facts: &Facts, gpu: u32) -> String {
    match facts.driver_api.cuda.value().map(|c| &c.devices) {
        None => format!(
            "CUDA is not usable here ({})",
            facts.driver_api.cuda.reason().unwrap_or("unknown")
        ),
        Some(d) => match d.value() {
            Some(list) => format!("no GPU {gpu} among the {} CUDA devices", list.len()),
            None => format!("no CUDA device list ({})", d.reason().unwrap_or("unknown")),
        },
    }
}

pub fn text(a: &GridAnswer) -> String {
    let verdict = if a.fits {
        "fits".to_string()
    } else {
        format!(
            "does NOT fit: the launch fails with 'CUDA error: invalid configuration argument' ({} blocks over the limit)",
            a.blocks.saturating_sub(u128::from(a.limit))
        )
    };
    let mut out = format!(
        "{} blocks on grid axis {} (limit {}, {}): {verdict}.\n",
        a.blocks, a.axis, a.limit, a.limit_from
    );
    match a.max_chunk {
        0 => out.push_str(&format!(
            "Even one batch item needs {} blocks: split the heads or the spatial map instead of the batch.\n",
            a.per_item
        )),
        c => out.push_str(&format!(
            "Largest batch chunk that fits: {c} ({} blocks per item); the batch takes {} chunk{}: run attention per chunk and concatenate (torch.cat) the outputs.\n",
            a.per_item,
            a.chunks,
            if a.chunks == 1 { "" } else { "s" }
        )),
    }
    out
}

/// `grid`'s exit code when the launch is over the limit.
pub const OVER_LIMIT: i32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_articles_temporal_attention_case() {
        let a = compute(6, 5, (40, 64), GridAxis::Y, DEFAULT_MAX_GRID);
        assert_eq!(a.blocks, 76_800);
        assert_eq!(a.limit, 65_535);
        assert!(!a.fits);
        assert_eq!(a.max_chunk, 5);
        assert_eq!(a.chunks, 2);
        let ok = compute(5, 5, (40, 64), GridAxis::Z, DEFAULT_MAX_GRID);
        assert_eq!(ok.blocks, 64_000);
        assert!(ok.fits);
    }

    #[test]
    fn edges() {
        // exactly at the limit fits
        assert!(compute(65_535, 1, (1, 1), GridAxis::Y, DEFAULT_MAX_GRID).fits);
        assert!(!compute(65_536, 1, (1, 1), GridAxis::Y, DEFAULT_MAX_GRID).fits);
        // x is far larger
        assert!(compute(65_536, 1, (1, 1), GridAxis::X, DEFAULT_MAX_GRID).fits);
        // one item already too large
        let a = compute(1, 16, (128, 128), GridAxis::Y, DEFAULT_MAX_GRID);
        assert_eq!((a.max_chunk, a.chunks, a.fits), (0, 0, false));
        // no overflow on huge numbers
        let big = compute(
            u64::MAX,
            u64::MAX,
            (u64::MAX, u64::MAX),
            GridAxis::X,
            DEFAULT_MAX_GRID,
        );
        assert!(!big.fits);
        assert_eq!(big.max_chunk, 0);
        // zero heads: nothing launched
        assert!(compute(10, 0, (4, 4), GridAxis::Y, DEFAULT_MAX_GRID).fits);
    }

    #[test]
    fn spatial_forms() {
        assert_eq!(parse_spatial("40x64"), Some((40, 64)));
        assert_eq!(parse_spatial(" 40 X 64 "), Some((40, 64)));
        assert_eq!(parse_spatial("2560"), Some((2560, 1)));
        assert_eq!(parse_spatial("40x"), None);
        assert_eq!(parse_spatial("axb"), None);
        assert_eq!(parse_spatial("1x2x3"), None);
    }
}
