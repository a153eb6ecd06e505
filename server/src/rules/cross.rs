//! Rules for cross. See the module docs of `rules` for the code scheme.

#[allow(unused_imports)]
use super::{Profile, Rule};
#[allow(unused_imports)]
use crate::base::Severity;

pub static RULES: &[&Rule] = &[];
