//! End-to-end tests: normalize.
