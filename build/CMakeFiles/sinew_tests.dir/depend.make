# Empty dependencies file for sinew_tests.
# This may be replaced when dependencies are built.
