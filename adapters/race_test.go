//go:build race

package adapters_test

func init() { raceEnabled = true }
