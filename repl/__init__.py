"""summon's terminal front end: the command line and the play session. No rules live here."""
