// Package names the labels of the score plugin, as scheduler-plugins' apis packages do.
package v1api

const PoolLabel = "example.com/pool"
