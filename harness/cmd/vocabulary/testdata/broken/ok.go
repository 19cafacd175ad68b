package broken

const label = "example.com/ok"
