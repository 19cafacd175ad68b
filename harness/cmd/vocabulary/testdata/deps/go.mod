module example.com/deps

go 1.24

require (
	example.com/Labels v1.2.0
	example.com/local v0.0.0
	k8s.io/api v0.37.2 // not in the test's module cache: its names stay unresolved
)

replace example.com/local => ./local
