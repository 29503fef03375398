# Empty dependencies file for sinew_shared.
# This may be replaced when dependencies are built.
