// Package boundary is a small package laid out as package adapters is, with
// violations of its boundary planted for TestBoundaryCatches.
package boundary

type spec struct{ name string }

type conv struct{ n int }

// homes is the registration: naming the specs here is allowed.
var homes = [...]*spec{alphaSpec, betaSpec}

var registered = len(homes)
