"""The ladders: matchmaking, the workers' partidos, the standings and replays, the students' and
instructors' pages."""
