package score

// Tests are not the plugin: this label must not be found.
const testLabel = "example.com/only-in-tests"

var _ = map[string]string{}[testLabel]
