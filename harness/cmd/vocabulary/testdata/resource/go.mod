module example.com/resource

go 1.24
