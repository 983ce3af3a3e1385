//! A criterion measurement of the benchmark thread's CPU time instead of wall time, so that
//! comparisons stay fair on a shared machine (other processes do not inflate the figures).

use cpu_time::ThreadTime;
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::Throughput;
use std::time::Duration;

pub struct ThreadCpuTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = ThreadTime;
    type Value = Duration;

    fn start(&self) -> ThreadTime {
        ThreadTime::now()
    }
    fn end(&self, start: ThreadTime) -> Duration {
        start.elapsed()
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical < 1e3 {
            (1.0, "ns cpu")
        } else if typical < 1e6 {
            (1e-3, "µs cpu")
        } else if typical < 1e9 {
            (1e-6, "ms cpu")
        } else {
            (1e-9, "s cpu")
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let (per_iter, unit) = match throughput {
            Throughput::Elements(n) => (*n as f64, "Melem/s cpu"),
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => (*n as f64, "MB/s cpu"),
        };
        values.iter_mut().for_each(|ns| *ns = per_iter * 1e9 / *ns / 1e6);
        unit
    }

    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str {
        values.iter_mut().for_each(|v| *v *= 1e-9);
        "s"
    }
}
