//! Float checkpoints: everything needed to continue a run exactly where it stopped.
//!
//! Layout (little-endian): magic `b"TEMPOCKP"`, `u32` version 3, `u32` H, `u32` output
//! buckets B, `u32` input mapping (0 plain, 1 mirrored, 2 king buckets: the mapping sizes the
//! first layer), `u32` activation code, `u32` epochs
//! done, `u64` optimiser steps, `u32` best epoch, `f64` best loss, `u32` number of epoch
//! records followed by that many `(f64 train loss, f64 validation loss or NaN, f64
//! positions/s, f64 learning rate)`; then four `f32` vectors of the parameter count: the
//! current parameters, AdamW's two moments, and the best-validation parameters. Version 2 is
//! the same without the input mapping (plain inputs), version 1 without B either (one
//! bucket); both are still read.

use super::data::InputMapping;
use super::model::{Activation, Network, Shape};
use super::optim::AdamW;
use anyhow::{bail, Context, Result};
use std::path::Path;

const MAGIC: &[u8; 8] = b"TEMPOCKP";
const VERSION: u32 = 3;

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochRecord {
    /// Mean training loss over the epoch.
    pub train: f64,
    /// Validation loss after the epoch, if there is a validation set.
    pub val: Option<f64>,
    /// Training positions per second.
    pub speed: f64,
    /// Learning rate used.
    pub lr: f64,
}

/// A run's state after some epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs done.
    pub epoch: u32,
    /// The current network.
    pub net: Network,
    /// The optimiser's state.
    pub opt: AdamW,
    /// The network after the best epoch so far (by validation loss, or training loss
    /// without a validation set).
    pub best: Network,
    /// That epoch (0: the starting network).
    pub best_epoch: u32,
    /// Its loss.
    pub best_loss: f64,
    /// Every epoch's figures, in order.
    pub history: Vec<EpochRecord>,
}

impl Checkpoint {
    /// The checkpoint as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let shape = self.net.shape();
        let words = [
            VERSION,
            shape.hidden as u32,
            shape.buckets as u32,
            shape.inputs.code(),
            self.net.activation().code(),
            self.epoch,
        ];
        for word in words {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.opt.t.to_le_bytes());
        out.extend_from_slice(&self.best_epoch.to_le_bytes());
        out.extend_from_slice(&self.best_loss.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for r in &self.history {
            for x in [r.train, r.val.unwrap_or(f64::NAN), r.speed, r.lr] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        for vector in [self.net.params(), &self.opt.m, &self.opt.v, self.best.params()] {
            for x in vector {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a checkpoint from bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint> {
        let mut reader = Reader(bytes);
        if reader.take(8)? != MAGIC {
            bail!("not a Tempo training checkpoint");
        }
        let version = reader.u32()?;
        if !(1..=VERSION).contains(&version) {
            bail!("checkpoint version {version}, expected 1 to {VERSION}");
        }
        let hidden = reader.u32()? as usize;
        let buckets = if version == 1 { 1 } else { reader.u32()? as usize };
        let inputs = if version < 3 { 0 } else { reader.u32()? };
        let inputs = InputMapping::from_code(inputs).with_context(|| format!("unknown input mapping {inputs}"))?;
        let shape = Shape { hidden, buckets, inputs };
        if !shape.is_valid() || hidden > 1 << 16 {
            bail!("hidden size {hidden} with {buckets} output buckets: H must be a positive multiple of 8 (and not absurdly large), B 1, 2, 4 or 8");
        }
        let activation = Activation::from_code(reader.u32()?).context("unknown activation")?;
        let epoch = reader.u32()?;
        let t = reader.u64()?;
        let best_epoch = reader.u32()?;
        let best_loss = reader.f64()?;
        let records = reader.u32()?;
        let mut history = Vec::new();
        for _ in 0..records {
            let (train, val, speed, lr) = (reader.f64()?, reader.f64()?, reader.f64()?, reader.f64()?);
            history.push(EpochRecord { train, val: (!val.is_nan()).then_some(val), speed, lr });
        }
        let n = shape.param_count();
        let mut vector = || -> Result<Vec<f32>> {
            let bytes = reader.take(4 * n)?;
            Ok(bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes"))).collect())
        };
        let (params, m, v, best) = (vector()?, vector()?, vector()?, vector()?);
        if !reader.0.is_empty() {
            bail!("{} bytes after the checkpoint's end", reader.0.len());
        }
        Ok(Checkpoint {
            epoch,
            net: Network::from_params(shape, activation, params),
            opt: AdamW { m, v, t },
            best: Network::from_params(shape, activation, best),
            best_epoch,
            best_loss,
            history,
        })
    }

    /// Writes the checkpoint to `path` atomically, so that an interrupted write leaves no
    /// truncated checkpoint.
    pub fn save(&self, path: &Path) -> Result<()> {
        tempo_output::write_atomically(path, &self.to_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Checkpoint::from_bytes(&bytes).with_context(|| format!("{}", path.display()))
    }
}

/// A cursor over bytes that fails cleanly at the end.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.0.len() < n {
            bail!("checkpoint truncated");
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into()?))
    }

    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into()?))
    }

    fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        for inputs in InputMapping::ALL {
            a_checkpoint_of_these_inputs_reads_back(inputs);
        }
    }

    fn a_checkpoint_of_these_inputs_reads_back(inputs: InputMapping) {
        let shape = Shape { hidden: 8, buckets: 4, inputs };
        let net = Network::random(shape, Activation::Screlu, 1);
        let mut opt = AdamW::new(net.params().len());
        opt.m[3] = 0.5;
        opt.v[7] = 0.25;
        opt.t = 12;
        let checkpoint = Checkpoint {
            epoch: 3,
            best: Network::random(shape, Activation::Screlu, 2),
            net,
            opt,
            best_epoch: 2,
            best_loss: 0.031,
            history: vec![
                EpochRecord { train: 0.05, val: Some(0.04), speed: 1e6, lr: 0.001 },
                EpochRecord { train: 0.04, val: None, speed: 2e6, lr: 0.0003 },
            ],
        };
        let bytes = checkpoint.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), checkpoint);
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Checkpoint::from_bytes(b"TEMPONNU").is_err());
    }

    /// The checkpoint of a tiny run after its first epoch, with `buckets` output buckets.
    fn after_one_epoch(buckets: usize) -> Checkpoint {
        let net = Network::random(Shape { hidden: 8, buckets, inputs: InputMapping::Plain }, Activation::Screlu, 3);
        Checkpoint {
            epoch: 1,
            best: net.clone(),
            opt: AdamW::new(net.params().len()),
            net,
            best_epoch: 1,
            best_loss: 0.5,
            history: vec![EpochRecord { train: 0.6, val: Some(0.5), speed: 1e6, lr: 0.001 }],
        }
    }

    #[test]
    fn older_checkpoints_are_plain_networks_of_their_buckets() {
        // Version 2: the version word is 2 and the input mapping word is absent.
        let checkpoint = after_one_epoch(4);
        let v3 = checkpoint.to_bytes();
        let mut v2 = v3[..8].to_vec();
        v2.extend_from_slice(&2u32.to_le_bytes());
        v2.extend_from_slice(&v3[12..20]);
        v2.extend_from_slice(&v3[24..]);
        assert_eq!(Checkpoint::from_bytes(&v2).unwrap(), checkpoint);
        // Version 1: the version word is 1 and the bucket word is absent too.
        let checkpoint = after_one_epoch(1);
        let v3 = checkpoint.to_bytes();
        let mut v1 = v3[..8].to_vec();
        v1.extend_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&v3[12..16]);
        v1.extend_from_slice(&v3[24..]);
        assert_eq!(Checkpoint::from_bytes(&v1).unwrap(), checkpoint);
        // An unknown input mapping is an error.
        let mut bad = checkpoint.to_bytes();
        bad[20..24].copy_from_slice(&3u32.to_le_bytes());
        assert!(Checkpoint::from_bytes(&bad).unwrap_err().to_string().contains("input mapping 3"));
        // King buckets (2) declared over a plain network's vectors: too short for its rows.
        bad[20..24].copy_from_slice(&2u32.to_le_bytes());
        assert!(Checkpoint::from_bytes(&bad).unwrap_err().to_string().contains("truncated"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Arbitrary bytes after the magic, and a valid checkpoint with a header word replaced
        /// or cut short: an error or a checkpoint, never a panic.
        #[test]
        fn checkpoints_never_panic(
            noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            word in 0usize..9,
            value in proptest::prelude::any::<u32>(),
            cut in proptest::prelude::any::<usize>(),
        ) {
            let mut prefixed = b"TEMPOCKP".to_vec();
            prefixed.extend_from_slice(&noise);
            let _ = Checkpoint::from_bytes(&prefixed);
            let checkpoint = after_one_epoch(2);
            let mut bytes = checkpoint.to_bytes();
            bytes[8 + 4 * word..12 + 4 * word].copy_from_slice(&value.to_le_bytes());
            let cut = cut % (bytes.len() + 1);
            let _ = Checkpoint::from_bytes(&bytes[..cut]);
            let _ = Checkpoint::from_bytes(&bytes);
        }
    }
}
