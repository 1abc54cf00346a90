package boundary

// alphaReply uses its own home (allowed), the core (allowed) and another
// home (a violation).
func alphaReply() int { return alphaHelper() + coreHelper() + betaHelper() }
