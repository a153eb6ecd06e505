; inherits: markdown
