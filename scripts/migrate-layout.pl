#!/usr/bin/perl
# Brings code written against the layout before issue #11 to the new one. The old paths
# still compile through `// moved:` re-exports, but tests/layering.rs counts them as
# upward imports. Idempotent. Run from the repository root:
#
#   perl scripts/migrate-layout.pl $(git ls-files 'src/*.rs' 'tests/*.rs')
#
# Then, for each check written the old way (`check!("area.name", "title", module::f)` in
# checks::ALL), declare `pub const AREA_NAME: Check = Check { .. }` beside its function
# (CONTRIBUTING.md, "Add a check"), list `&module::AREA_NAME` in ALL, and regenerate the
# README table with `gpu-doctor checks --markdown`.
use strict;
use warnings;

for my $file (@ARGV) {
    open(my $in, '<', $file) or die "$file: $!";
    local $/;
    my $text = <$in>;
    close $in;
    my $old = $text;
    my @lines = split /(?<=\n)/, $text;
    for (@lines) {
        next if m{// moved:};
        # Paths that moved.
        s/crate::report::finding\b/crate::finding/g;
        s/crate::probes::outcome\b/crate::facts::probe/g;
        s/\buse crate::probes::kernels;/use crate::cuda_ffi as kernels;/g;
        s/crate::probes::kernels\b/crate::cuda_ffi/g;
        s/crate::checks::env::(parse_arch_list|arch_list_covers|ArchEntry)\b/crate::arch_list::$1/g;
        s/crate::checks::arch::(coverage|Coverage)\b/crate::arch_list::$1/g;
        s/crate::checks::view::parse_cc\b/crate::arch_list::parse_cc/g;
        s/crate::fleet::tui\b/crate::tui::fleet/g;
        s/crate::explain::cmd::read_text\b/crate::error::read_text/g;
        s/crate::app::AppError\b/crate::error::AppError/g;
        s/crate::app::(choose_matrix|problems_text)\b/crate::pipeline::$1/g;
        s/crate::tui::worker::Request\b/crate::pipeline::Request/g;
        if ($file =~ m{^src/report/}) { s/\bsuper::finding::/crate::finding::/g; }
        if ($file =~ m{^src/probes/}) {
            s/\bsuper::outcome::/crate::facts::probe::/g;
            s/\buse super::kernels;/use crate::cuda_ffi as kernels;/g;
            s/\bsuper::kernels::/crate::cuda_ffi::/g;
        }
    }
    $text = join '', @lines;
    # Findings made from the catalogue's definitions (the check modules only):
    #   let id = "area.name";          ->  let id = &AREA_NAME;
    #   Finding::new("area.name", ..   ->  AREA_NAME.finding(..
    #   Finding::new(id, ..            ->  id.finding(..
    if ($file =~ m{^src/checks/(?!catalogue|mod|testutil|view)}) {
        $text =~ s/let id = "([a-z]+)\.([a-z_]+)";/"let id = &" . uc("$1_$2") . ";"/ge;
        $text =~ s/Finding::new\(\s*"([a-z]+)\.([a-z_]+)",\s*/uc("$1_$2") . ".finding("/ge;
        $text =~ s/Finding::new\(\s*id,\s*/id.finding(/g;
    }
    if ($text ne $old) {
        open(my $out, '>', $file) or die "$file: $!";
        print $out $text;
        close $out;
        print "migrated $file\n";
    }
}
