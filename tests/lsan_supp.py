#!/usr/bin/env python3
"""Writes the LeakSanitizer suppressions of the sanitizer build: the
project's own (tests/lsan.supp), then a `leak:` line for each OpenCL ICD
library the ICD loader would open on this machine.

A leak inside an OpenCL implementation is not lockstep's, and the loader
opens every ICD installed here, whether lockstep runs on it or not (Debian's
mesa-opencl-icd leaks 72 bytes as it looks for GPUs). Built without frame
pointers, an ICD leaves LeakSanitizer a stack that ends inside it, with no
frame of the loader or of lockstep to match; its library's name is on that
stack. tests/meson.build runs this at every build of a sanitizer build, so
the list is of the ICDs installed when the tests run.

The ICDs, as ocl-icd and the Khronos loader find them (all of them: a
suppression too many costs nothing): the libraries OCL_ICD_FILENAMES lists;
the .icd files of OCL_ICD_VENDORS (a directory, or one file, found in
/etc/OpenCL/vendors when it is a bare name), of OPENCL_VENDOR_PATH and of
/etc/OpenCL/vendors, and of the directory the tests point OCL_ICD_VENDORS
at (.deps/intel-opencl/vendors: Intel's CPU runtime, which leaks as it
starts). Each .icd file holds a library's name or path.

usage: lsan_supp.py OUT PROJECT_SUPPRESSIONS
"""
import glob
import os
import re
import sys

VENDORS = '/etc/OpenCL/vendors'
# The ICD directory the tests themselves point OCL_ICD_VENDORS at: Intel's
# OpenCL CPU runtime, where tools/intel_opencl.sh installed it.
TESTS_VENDORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '.deps', 'intel-opencl', 'vendors')


def icd_files():
    """The .icd files the loader would read."""
    dirs, files = [VENDORS, TESTS_VENDORS], []
    vendors = os.environ.get('OCL_ICD_VENDORS', '')
    if os.path.isdir(vendors):
        dirs.append(vendors)
    elif vendors:
        files.append(vendors if os.sep in vendors else os.path.join(VENDORS, vendors))
    if os.environ.get('OPENCL_VENDOR_PATH'):
        dirs.append(os.environ['OPENCL_VENDOR_PATH'])
    for d in dirs:
        files += sorted(glob.glob(os.path.join(d, '*.icd')))
    return files


def icd_libraries():
    """The libraries the ICDs name, as given (a name or a path)."""
    libs = [p for p in re.split(r'[:;]', os.environ.get('OCL_ICD_FILENAMES', '')) if p]
    for f in icd_files():
        try:
            with open(f) as icd:
                libs += [line.strip() for line in icd if line.strip()]
        except OSError:
            pass  # unreadable: the loader skips it too
    return libs


def template(lib):
    """What a library's module names contain, whatever its version:
    libpocl.so for libpocl.so.2.10.0 (the file) and libpocl.so.2 (a link)."""
    name = os.path.basename(lib)
    return name[:name.index('.so') + 3] if '.so' in name else name


def main():
    out, project = sys.argv[1], sys.argv[2]
    with open(project) as f:
        text = f.read()
    names = []
    for lib in icd_libraries():
        name = template(lib)
        if name and name not in names:
            names.append(name)
    text += '# The OpenCL ICDs the loader opens on this machine (tests/lsan_supp.py).\n'
    text += ''.join('leak:%s\n' % n for n in names)
    tmp = out + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, out)


main()
