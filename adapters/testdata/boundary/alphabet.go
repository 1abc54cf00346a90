package boundary

// This file's name begins with a home's name but not with "alpha_": it is
// core, so using the home is a violation.
func letters() int { return alphaHelper() }
