package boundary

var alphaSpec = &spec{name: "alpha"}

func alphaHelper() int { return coreHelper() }
