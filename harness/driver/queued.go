package driver

import "time"

// queueEpoch is the instant QueuedPod times count from.
var queueEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
