module example.com/score

go 1.24
