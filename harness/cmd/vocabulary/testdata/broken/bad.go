package broken

func bad() {
	if x := 1 {
	}
}
