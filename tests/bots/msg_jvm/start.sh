#!/bin/sh
# Writes what a JVM writes when it cannot reserve its heap, and exits 1 before reading hello.
echo "Error occurred during initialization of VM" >&2
echo "Could not reserve enough space for 2097152KB object heap" >&2
echo "Error: Could not create the Java Virtual Machine." >&2
echo "Error: A fatal exception has occurred. Program will exit." >&2
exit 1
