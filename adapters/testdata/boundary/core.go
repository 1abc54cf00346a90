package boundary

func coreHelper() int { return 1 }

// core uses a home's function, constant, method, type and field: five
// violations. The local alphaHelper shadows the home's: allowed.
func core(c *conv) int {
	n := betaNode{}
	alphaHelper := 2
	return betaHelper() + betaLimit + c.betaMethod() + n.count + alphaHelper
}
