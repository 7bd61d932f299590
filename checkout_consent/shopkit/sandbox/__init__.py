"""Harness machinery: executing a build in a confined subprocess (grading probes and the
agent's run tools). `sandbox` launches and collects, `sandbox_script` is the confined
program, `execution` is what a build is run for."""
