package boundary

// Test files are not held to the boundary.
func testOnly() int { return alphaHelper() + betaHelper() }
