//go:build race

package reflectx

func init() { raceEnabled = true }
