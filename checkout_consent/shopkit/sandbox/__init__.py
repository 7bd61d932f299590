"""Running a shopkit build: executing it in a confined subprocess (grading probes and the
agent's run tools: `sandbox` launches and collects, `sandbox_script` is the confined
program, `execution` is what a build is run for, `prepare` is the run tools' work), and the
`checkout-consent shopkit run|grade` verbs (`verbs`) with their adapters (`adapters`,
`inspect_run`) and runs on disk (`runs`)."""
