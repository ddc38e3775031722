//! The fleet's node_exporter metrics (`fleet --prometheus FILE`): each host's series with a
//! `host` label (`report::prometheus`), and its fleet status.

use super::{HostResult, Status};
use crate::report::prometheus;

/// The metrics of a fleet run: each host's series with a `host` label, and its status.
pub fn fleet(results: &[HostResult]) -> String {
    let mut m = prometheus::Metrics::default();
    for r in results {
        for s in Status::ALL {
            let on = if r.status == s { 1.0 } else { 0.0 };
            m.add(
                "gpu_doctor_fleet_host_status",
                &[("host", &r.host), ("status", s.as_str())],
                on,
            );
        }
        match r.parsed_report() {
            Some(rep) => prometheus::add_report(&mut m, &rep, Some(&r.host)),
            None => {
                m.add("gpu_doctor_up", &[("host", &r.host)], 0.0);
                m.add(
                    "gpu_doctor_exit_code",
                    &[("host", &r.host)],
                    f64::from(r.exit_code),
                );
            }
        }
        prometheus::add_common(&mut m, Some(&r.host), r.elapsed_ms as f64 / 1000.0);
    }
    prometheus::timestamp(&mut m);
    m.render()
}
