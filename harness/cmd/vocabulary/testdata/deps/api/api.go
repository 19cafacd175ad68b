// Package api is in the plugin's module but outside the DIR the test passes.
package api

const Tier = "example.com/" + tierName

const tierName = "tier"
