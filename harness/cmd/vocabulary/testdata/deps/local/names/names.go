package names

const Team = "example.com/team"
