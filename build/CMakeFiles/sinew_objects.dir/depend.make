# Empty dependencies file for sinew_objects.
# This may be replaced when dependencies are built.
