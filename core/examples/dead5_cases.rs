// scratch harness (not committed)
use std::time::Instant;
use tempo_core::unwinnable::{can_mate, CanMate};
use tempo_core::{CastlingMode, Color, Position, Setup};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let nodes: u64 = args.get(2).map_or(1_000_000, |s| s.parse().unwrap());
    let only: Option<&str> = args.get(3).map(|s| s.as_str());
    let mut times = Vec::new();
    let mut cpus = Vec::new();
    let (mut right, mut und, mut wrong) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (label, fen) = line.split_once(' ').unwrap();
        let fen4: Vec<&str> = fen.split_whitespace().collect();
        let full =
            format!("{} {} {} {} 0 1", fen4[0], fen4[1], fen4.get(2).unwrap_or(&"-"), fen4.get(3).unwrap_or(&"-"));
        let setup = Setup::from_fen(&full, CastlingMode::Standard).unwrap();
        let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard).or_else(|e| e.into_repaired()) else {
            continue;
        };
        for (i, mater) in [Color::White, Color::Black].into_iter().enumerate() {
            if let Some(o) = only {
                if o != if i == 0 { "w" } else { "b" } {
                    continue;
                }
            }
            let can = label.as_bytes()[i] != b'-';
            let t = Instant::now();
            let c = cpu_time::ThreadTime::now();
            let a = can_mate(&pos, mater, nodes);
            let dt = t.elapsed();
            let dc = c.elapsed();
            times.push(dt);
            cpus.push(dc);
            if dc.as_secs_f64() > 0.4 {
                println!("slow cpu {:.3}s {:?} {mater:?} {line}", dc.as_secs_f64(), a.decided());
            }
            match a {
                CanMate::Yes(ref l) => {
                    if can {
                        right += 1
                    } else {
                        wrong += 1;
                        println!("WRONG yes {mater:?} {line}")
                    }
                    if std::env::var("SHOW").is_ok() {
                        println!("yes {:?} {} len {} {:.3}s {line}", mater, can, l.len(), dt.as_secs_f64())
                    }
                }
                CanMate::No(_) => {
                    if !can {
                        right += 1
                    } else {
                        wrong += 1;
                        println!("WRONG no {mater:?} {line}")
                    }
                }
                CanMate::Undecided => {
                    und += 1;
                    println!("undecided {mater:?} {:.3}s cpu {:.3}s {line}", dt.as_secs_f64(), dc.as_secs_f64())
                }
            }
        }
    }
    times.sort();
    cpus.sort();
    let m = cpus.len();
    println!("cpu: median {:?} p99 {:?} worst {:?}", cpus[m / 2], cpus[m * 99 / 100], cpus[m - 1]);
    let n = times.len();
    println!(
        "right {right} undecided {und} wrong {wrong} of {n}; median {:?} p99 {:?} worst {:?}",
        times[n / 2],
        times[n * 99 / 100],
        times[n - 1]
    );
}
