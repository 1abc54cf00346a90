package boundary

var betaSpec = &spec{name: "beta"}

func betaHelper() int { return betaLimit }

type betaNode struct{ count int }

func (c *conv) betaMethod() int { return c.n }
