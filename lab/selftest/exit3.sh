#!/bin/bash
echo "exiting with 3 on $LAB_HOST"; exit 3
