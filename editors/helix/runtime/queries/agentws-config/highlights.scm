; inherits: toml
