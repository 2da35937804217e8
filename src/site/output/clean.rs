//! `kansoku clean`: what kansoku wrote into a build directory removed,
//! with its records, never through a link and never a file it did not
//! write.

use super::*;

/// Removes what kansoku wrote into `out` and its records, never following a
/// link and never removing a file it did not write; `out` itself goes only
/// when nothing else is left in it. Returns what was left (`/`-separated,
/// under `out`), for the caller to mention.
pub fn remove(out: &Path) -> Result<Vec<String>> {
    remove_at(out, &state_dir(out))
}

/// [`remove`] for a build directory whose records are kept in `state`.
pub(crate) fn remove_at(out: &Path, state: &Path) -> Result<Vec<String>> {
    check_state_dir(state)?;
    let manifests = manifest_paths(state, out);
    let target = match resolve(out) {
        Ok(t) => t,
        Err(_) => return Ok(Vec::new()),
    };
    if !target.exists() {
        spare::discard(&manifests).map_err(|e| Error::io(&manifests.spare_dir, e))?;
        manifests
            .remove_all()
            .map_err(|e| Error::io(&manifests.committed, e))?;
        return Ok(Vec::new());
    }
    let lock_path = state.join(format!("{}.lock", name(out)));
    let lock = guard::BuildLock::acquire(&lock_path, &out.display().to_string())
        .map_err(|e| Error::io(out, e))?;
    spare::discard(&manifests).map_err(|e| Error::io(&manifests.spare_dir, e))?;
    let previous = manifests.load(&target);
    let owned_dirs = manifest::owned_dirs(previous.files.keys().map(String::as_str));
    let none = Keep::new(&[]).expect("no patterns is valid");
    let rules = tree::Rules {
        keep: &none,
        owns: &|p| previous.owns(p),
        owned_dir: &|d| owned_dirs.contains(d),
        known: &manifest::Dirs::default(),
        writable: false,
    };
    let survey = tree::survey(&target, &rules).map_err(|e| denied(out, &target, e))?;
    let is_link = fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_symlink());
    if survey.foreign.is_empty() && !is_link {
        if tree::is_mount_point(&target) {
            // A mount point cannot be removed (EBUSY): empty it, and
            // leave the directory to whoever mounted it.
            for entry in fs::read_dir(&target).map_err(|e| denied(out, &target, e))? {
                let path = entry.map_err(|e| denied(out, &target, e))?.path();
                tree::remove_tree(&path).map_err(|e| denied(out, &path, e))?;
            }
        } else {
            tree::remove_tree(&target).map_err(|e| denied(out, &target, e))?;
        }
    } else {
        let mut dirs: Vec<&str> = owned_dirs.iter().copied().collect();
        for p in previous.files.keys() {
            // Never through a link a person put where kansoku's
            // directory was: the file it reaches is not kansoku's.
            if !tree::real_parents(&target, p) {
                continue;
            }
            let path = target.join(p);
            match fs::symlink_metadata(&path) {
                Ok(m) if m.is_file() => {
                    fs::remove_file(&path).map_err(|e| denied(out, &path, e))?
                }
                _ => {}
            }
        }
        dirs.sort_unstable_by_key(|d| std::cmp::Reverse(d.len()));
        for d in dirs {
            if tree::real_parents(&target, d) {
                let _ = fs::remove_dir(target.join(d));
            }
        }
        if target == out {
            let _ = fs::remove_dir(&target);
        }
    }
    manifests
        .remove_all()
        .map_err(|e| Error::io(&manifests.committed, e))?;
    let _ = fs::remove_file(&lock_path);
    drop(lock);
    // The state directory goes too once nothing else of kansoku's is in it.
    let _ = fs::remove_dir(state);
    Ok(survey.foreign)
}
